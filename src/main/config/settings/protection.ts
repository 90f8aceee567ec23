/** Request protection: signing, duplicate-submission protection, the input filter, the example handlers. */
import { z } from 'zod';
import { setting } from '../setting';
import { bool, int, list, publicUrlMap, signSchemeMap, str, stringMap } from '../values';

export const PROTECTION_KEYS = {
  'svc.security.sign.enabled': setting({
    schema: bool,
    default: true,
    doc: 'request-signing check on signed routes',
  }),
  'svc.security.sign.timeoutSeconds': setting({
    schema: int(1, 86400),
    default: 300,
    doc: 'timestamp tolerance window',
  }),
  'svc.security.sign.nonceTtlSeconds': setting({
    schema: int(1, 7 * 86400),
    default: 600,
    doc: 'seconds a nonce is remembered (never less than its timestamp stays acceptable)',
  }),
  'svc.security.sign.apps': setting({
    schema: stringMap,
    default: {},
    secret: true,
    doc: '`{"<APP_KEY>":"<APP_SECRET>"}`; required in prod while signing is on',
    defaultText: '`{}`',
  }),
  'svc.security.sign.schemes': setting({
    schema: signSchemeMap,
    default: {},
    doc:
      '`{"<APP_KEY>":"v1" \\| "rfc9421" \\| "v1,rfc9421"}`: the schemes each app may sign with ' +
      '([integration-third-party.md](integration-third-party.md)); apps not listed use `v1` (the ' +
      'legacy default, kept from the seed; prod warns at start naming every app that may still ' +
      'sign with `v1`). An unknown scheme, or an app not in `svc.security.sign.apps`, fails the ' +
      'start (naming the file when the entry is in your own `SVC_CONFIG_DIR`); an `rfc9421` app ' +
      'key must be printable ASCII (it is the `keyid`). Exception: an entry from the packaged ' +
      "`config/application*.yml` (the dev profile's `demo-app`) for an app your " +
      '`svc.security.sign.apps` does not contain is dropped with a warning at start, so bringing ' +
      "your own apps never trips on the profile's demo app",
  }),
  'svc.security.sign.public-urls': setting({
    schema: publicUrlMap,
    default: {},
    doc:
      '`{"admin" \\| "web":"https://host[:port][/prefix]"}`: the public base URL that a proxy ' +
      "maps to the app's root; RFC 9421 `@target-uri` = this + the request target. Not set: " +
      '`http://` (`https://` on a TLS connection) + the `Host` header + the request target (dev ' +
      'and test only while an app may sign with `rfc9421`: prod then requires a URL for every app ' +
      "the process serves, `admin`, `web` or both, since the client's `Host` would let a request " +
      'signed for another host or the other app verify; the refusal names this key). Also the ' +
      "app's `servers` entry in its OpenAPI document; not set: `http://localhost:<svc.admin.port " +
      '/ svc.web.port>` in dev and test, a relative `/` (the host that served the document) in prod',
  }),
  'svc.idempotency.param-ttl-seconds': setting({
    schema: int(1, 3600),
    default: 5,
    doc: 'PARAM mode: default lock lifetime of a route (a route may set its own)',
  }),
  'svc.idempotency.token-ttl-seconds': setting({
    schema: int(1, 86400),
    default: 600,
    doc: 'TOKEN mode: lifetime of an unused `X-Idempotent-Token`',
  }),
  'svc.idempotency.token-secret': setting({
    schema: str,
    default: '',
    secret: true,
    hmac: { minLength: 32 },
    requiredInProd: { why: 'no default secrets; 32+ characters, the same on every instance' },
    doc:
      'HMAC key (32+ chars) of the one-time `X-Idempotent-Token`s ' +
      '([request-protection.md](request-protection.md#duplicate-submission-protection)); required ' +
      "in prod and **the same on every instance** (an instance refuses another's tokens " +
      'otherwise); dev/test generate one per start',
  }),
  'svc.idempotency.token-previous-secret': setting({
    schema: str,
    default: '',
    secret: true,
    hmac: { minLength: 32 },
    doc:
      'the key before the last rotation (32+ chars): its tokens still verify, new ones use the ' +
      'current key; drop it after `token-ttl-seconds`',
  }),
  'svc.idempotency.token-rate-limit-per-minute': setting({
    schema: int(1, 100000),
    default: 60,
    doc:
      'TOKEN mode: `GET /idempotent/token` requests per minute per client IP, and also per ' +
      'session when the request presents an access token (each app counts its own; ' +
      '[request-protection.md](request-protection.md#rate-limits))',
  }),
  'svc.idempotency.header-name': setting({
    schema: z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'expected an HTTP header name'),
    default: 'Idempotency-Key',
    doc: 'HEADER mode: the key header',
  }),
  'svc.idempotency.header-ttl-seconds': setting({
    schema: int(60, 30 * 86400),
    default: 86400,
    doc: 'HEADER mode: how long a completed response is kept and replayed',
  }),
  'svc.idempotency.header-lock-seconds': setting({
    schema: int(1, 3600),
    default: 60,
    doc: 'HEADER mode: how long a running request holds its key if it never finishes (crash)',
  }),
  'svc.xss.enabled': setting({
    schema: bool,
    default: true,
    doc: 'the input filter of both apps',
  }),
  'svc.xss.exclude-paths': setting({
    schema: list.refine((ps) => ps.every((p) => /^\/[^*]*(\/\*\*)?$/.test(p)), 'expected paths like /exact or /prefix/**'),
    default: [],
    doc: 'paths the input filter skips: `/exact` or `/prefix/**`',
  }),
  'svc.examples.enabled': setting({
    schema: bool,
    default: false,
    doc: 'mount the example handlers (`/open/echo`, `/examples/echo`, `/orders`, `/payments`)',
    defaultText: '`false`; `true` in dev and test',
  }),
};
