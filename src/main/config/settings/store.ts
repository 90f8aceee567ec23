/** The session and key-value store: memory or Redis, and how Redis is reached. */
import { z } from 'zod';
import { DEFAULT_REDIS_MODE, DEFAULT_STORE_BACKEND, REDIS_MODE_NAMES, STORE_BACKEND_NAMES } from '../../store-backends';
import { setting } from '../setting';
import { hostPortList, int, nonEmpty, str } from '../values';

export const STORE_KEYS = {
  'svc.store': setting({
    schema: z.enum(STORE_BACKEND_NAMES),
    default: DEFAULT_STORE_BACKEND,
    doc: '`memory` (dev/test only) or `redis`',
  }),
  'svc.redis.url': setting({
    schema: str,
    default: '',
    secret: true,
    envAliases: ['REDIS_URL'],
    doc:
      '`redis://[user:password@]host:port[/db]`; required in standalone mode; in sentinel mode ' +
      'optional, and only its user, password and database are used; in cluster mode optional, ' +
      'only its user and password are used, and it must name no database other than 0; a password ' +
      '(here or in `svc.redis.password`) is required in prod in every mode',
  }),
  'svc.redis.key-prefix': setting({
    schema: str,
    default: 'ag:',
    doc:
      'prefix of every key this service writes; in cluster mode it must not contain `{` or `}` (a ' +
      'hash tag in the prefix would put every key in one slot, on one master)',
  }),
  'svc.redis.command-timeout-ms': setting({
    schema: int(50, 60000),
    default: 2000,
    doc: 'a Redis command fails (503) instead of hanging after this',
  }),
  'svc.redis.index-sweep-ms': setting({
    schema: int(0, 3_600_000),
    default: 1000,
    doc:
      'every this many ms the online index sweeper examines up to 1,000 index entries, removes those of ended or ' +
      'expired sessions and moves what earlier releases wrote into the buckets; `0` turns it off (listings then prune ' +
      'what they meet). See [sessions](sessions.md#the-online-index-at-scale)',
  }),
  'svc.redis.mode': setting({
    schema: z.enum(REDIS_MODE_NAMES),
    default: DEFAULT_REDIS_MODE,
    doc:
      '`standalone` (one server at `svc.redis.url`), `sentinel` (the master named by ' +
      '`svc.redis.sentinels`) or `cluster` (a Redis Cluster found from `svc.redis.nodes`; the ' +
      'local session cache is refused there). How to pick, and the failover runbooks: ' +
      '[operations](operations.md#redis-topologies)',
  }),
  'svc.redis.password': setting({
    schema: str,
    default: '',
    secret: true,
    doc: 'the data password, instead of putting it in the URL (if both are set they must agree)',
    defaultText: '(none; secret)',
  }),
  'svc.redis.sentinels': setting({
    schema: hostPortList,
    default: [],
    doc: 'sentinel mode: comma list of Sentinel addresses `host:port` (IPv6 as `[addr]:port`); refused in another mode',
  }),
  'svc.redis.nodes': setting({
    schema: hostPortList,
    default: [],
    doc:
      'cluster mode: comma list of seed nodes `host:port` (IPv6 as `[addr]:port`); one that ' +
      'answers is enough, the client discovers the others from it; list several so a start does ' +
      'not depend on one node; required in cluster mode, refused in another mode',
  }),
  'svc.redis.master-name': setting({
    schema: nonEmpty,
    default: 'mymaster',
    doc: "sentinel mode: the master's name in the Sentinels' configuration",
  }),
  'svc.redis.sentinel-password': setting({
    schema: str,
    default: '',
    secret: true,
    doc: "sentinel mode: the Sentinels' own password (`requirepass` of the Sentinels), when they have one",
    defaultText: '(none; secret)',
  }),
  'svc.redis.wait-replicas': setting({
    schema: int(0, 64),
    default: 0,
    doc:
      'when > 0, each write a client is told succeeded (login, logout/kickout, session changes, ' +
      'nonces, idempotency results, refresh and one-time tokens) is followed by `WAIT n <command ' +
      'timeout>`; fewer acknowledgements fail the request with 503 `store-unavailable` (see ' +
      '[operations](operations.md#redis-topologies))',
  }),
};
