/** The audit trail (docs/audit.md): where security events go, how long the store keeps them, how many may wait. */
import { z } from 'zod';
import { setting } from '../setting';
import { int } from '../values';

/** The sinks an event can be written to. */
export const AUDIT_SINKS = ['log', 'store'] as const;

const sinkList = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
      : v,
  z.array(z.enum(AUDIT_SINKS, { message: `expected a list of ${AUDIT_SINKS.join(', ')}` })),
);

export const AUDIT_KEYS = {
  'svc.audit.sinks': setting({
    schema: sinkList,
    default: ['store', 'log'],
    defaultText: '`store,log`',
    doc:
      "where security events are written: `store` (searchable: the login and operation logs, users' own logins; " +
      'memory: a bounded ring, Redis: a Stream per login type and log) and `log` (a pino line per event); empty: none',
  }),
  'svc.audit.retention-days': setting({
    schema: int(1, 3650),
    default: 90,
    doc: 'the store keeps events this long (Redis: `XADD ... MINID`); older ones are removed as new ones arrive',
  }),
  'svc.audit.queue-size': setting({
    schema: int(100, 1_000_000),
    default: 10000,
    doc: 'events waiting for one sink at most (a sink that is down is retried with backoff); more are dropped, counted and logged',
  }),
};
