/** The audit trail (docs/audit.md): where security events go, how long the store keeps them, how many may wait. */
import { z } from 'zod';
import { SECURITY_EVENT_TYPES } from '../../../application/audit/security-event';
import { webhookKey } from '../../../application/audit/webhooks';
import { setting } from '../setting';
import { int } from '../values';

/** The sinks an event can be written to. */
export const AUDIT_SINKS = ['log', 'store', 'webhook', 'sql'] as const;

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

/** `{"<url>": {"secret": "whsec_...", "types": [...]}}`, from YAML or a JSON string. */
const webhookMap = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v ?? {};
    if (v.trim() === '') return {};
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v;
    }
  },
  z.record(
    z.string().regex(/^https?:\/\/[^\s]+$/, 'an endpoint is an http(s) URL'),
    z
      .object({
        secret: z.string().refine((s) => webhookKey(s) !== null, 'expected whsec_ and the base64 of at least 24 bytes'),
        types: z.array(z.enum(SECURITY_EVENT_TYPES)).min(1).optional(),
      })
      .strict(),
    { message: 'expected a JSON object {"<url>": {"secret": "whsec_...", "types": [...]}}' },
  ),
);

export const AUDIT_KEYS = {
  'svc.audit.sinks': setting({
    schema: sinkList,
    default: ['store', 'log'],
    defaultText: '`store,log`',
    doc:
      "where security events are written: `store` (searchable: the login and operation logs, users' own logins; " +
      'memory: a bounded ring, Redis: a Stream per login type and log), `log` (a pino line per event), `webhook` ' +
      '(`svc.audit.webhooks`) and `sql` (tables `sys_login_log`, `sys_oper_log` in `svc.datasource.*`); empty: none',
  }),
  'svc.audit.retention-days': setting({
    schema: int(1, 3650),
    default: 90,
    doc: 'the store keeps events this long (Redis: `XADD ... MINID`); older ones are removed as new ones arrive',
  }),
  'svc.audit.webhooks': setting({
    schema: webhookMap,
    default: {},
    secret: true,
    doc:
      'with `webhook` in `svc.audit.sinks`: the endpoints that receive security events as Standard Webhooks, ' +
      '`{"<url>": {"secret": "whsec_<base64>", "types": ["login", ...]}}` (no `types`: every event)',
  }),
  'svc.audit.webhook-max-attempts': setting({
    schema: int(1, 30),
    default: 12,
    doc: 'attempts per webhook message (backoff from 1 s doubling to 5 min; 12 spans about 20 min), then it is given up and logged',
  }),
  'svc.audit.queue-size': setting({
    schema: int(100, 1_000_000),
    default: 10000,
    doc: 'events waiting for one sink at most (a sink that is down is retried with backoff); more are dropped, counted and logged',
  }),
};
