/**
 * The document-level parts of the OpenAPI description: who to contact, the licence, the servers,
 * the global tags with their descriptions, one prose description per operation (from its summary
 * and its guards' docs, so no route table repeats what its guards already say) and unique
 * operationIds.
 */
import { ERROR_CATALOGUE } from './error-catalogue';
import type { GuardDoc } from './guards';
import type { RouteDef } from './routes';

export interface DocumentContact {
  readonly name?: string;
  readonly url?: string;
  readonly email?: string;
}

/**
 * A 3.1 License object as every validator accepts it: with an SPDX `identifier` (a name alone passes the
 * official schema but not @apidevtools/swagger-parser's, which wants an `identifier` or a `url`).
 */
export interface DocumentLicense {
  readonly name: string;
  /** SPDX expression (OpenAPI 3.1 `identifier`). */
  readonly identifier: string;
}

export interface DocumentServer {
  readonly url: string;
  readonly description?: string;
}

/** What the deployment tells about itself: `info.contact`, `info.license` and `servers`. */
export interface DocumentMeta {
  readonly contact?: DocumentContact;
  readonly license?: DocumentLicense;
  readonly servers?: readonly DocumentServer[];
}

/** One line per tag a route table uses; a tag missing here is listed without a description. */
export const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  auth: 'Sign-up (web), login and logout, captcha (admin), refresh-token rotation and the current user (admin)',
  user: "The signed-in member's profile and sessions",
  mfa: 'Second factors: TOTP enrolment (setup, confirm with recovery codes) and removal',
  passkeys: "Passkeys (WebAuthn): registering, listing and removing the signed-in user's passkeys, and the passwordless login",
  system: 'Admin user administration: create and list users',
  'system-user': "Admin user administration: a user's roles and disabling a user (their live sessions follow at once)",
  'system-role': "Role administration: a role's fields, status and menus (its users' live sessions follow at once)",
  'system-menu': "Menu administration: the admin SPA's menu tree of directories, pages and buttons, whose permissions roles grant",
  monitor: 'Live admin sessions: list them and force one out',
  idempotency: 'One-time idempotency tokens for routes protected in TOKEN mode',
  examples: 'Example business routes showing signing, idempotency and per-user records (svc.examples.enabled)',
  problems: 'Human-readable pages that the `type` URI of each problem resolves to',
  'try-it': 'The browser login page for trying the admin app (svc.try-it.enabled)',
  dev: 'Development aids of the web app, never mounted in prod: the embedded mailbox (no svc.mail.smtp-url)',
  docs: 'This API description and its Swagger UI (svc.openapi.enabled)',
  actuator: 'Health probes, build information and Prometheus metrics (svc.actuator.exposure)',
};

/** The tags the operations use, in order of first use, each with its description. */
export function globalTags(routes: readonly RouteDef[]): Array<{ name: string; description?: string }> {
  const names = [...new Set(routes.flatMap((r) => r.tags ?? []))];
  return names.map((name) => (Object.hasOwn(TAG_DESCRIPTIONS, name) ? { name, description: TAG_DESCRIPTIONS[name] } : { name }));
}

const quoted = (items: readonly string[], mode: unknown): string => items.map((i) => `\`${i}\``).join(mode === 'OR' ? ' or ' : ' and ');

const seconds = (n: unknown): string => `${String(n)} s`;

function describeIdempotency(doc: GuardDoc): string {
  const mode = String(doc.idempotency ?? '').toUpperCase();
  const header = typeof doc.header === 'string' ? doc.header : '';
  if (mode === 'TOKEN') {
    const invalid = ERROR_CATALOGUE['idempotency-token-invalid'].status;
    return (
      `Idempotency (TOKEN): send a one-time token from \`GET /idempotent/token\` in \`${header}\`; ` +
      `a spent, unknown or expired token answers ${invalid}, and a failed request gives the token back.`
    );
  }
  if (mode === 'HEADER') {
    const mismatch = ERROR_CATALOGUE['idempotency-key-mismatch'].status;
    return (
      `Idempotency (HEADER): send a client-chosen \`${header}\`; a retry with the same key and request gets the stored response, ` +
      `the same key with another request answers ${mismatch}.`
    );
  }
  const window =
    doc.ttlSeconds === undefined
      ? 'while it runs and for svc.idempotency.param-ttl-seconds after'
      : `while it runs and for ${seconds(doc.ttlSeconds)} after`;
  const status = ERROR_CATALOGUE['duplicate-submission'].status;
  return `Duplicate-submission lock (PARAM): the same caller sending the same request ${window} gets ${status} \`duplicate-submission\`.`;
}

/** What a rate limit of each type counts. */
const RATE_LIMIT_SUBJECTS: Readonly<Record<string, string>> = {
  IP: 'client IP',
  USER: 'user',
  SESSION: 'session (only requests that present an access token are counted)',
  GLOBAL: 'app (all clients together)',
  EMAIL: 'e-mail address named in the body (compared without regard to case)',
};

function describeGuard(doc: GuardDoc): string | undefined {
  switch (doc.kind) {
    case 'login': {
      const header = typeof doc.header === 'string' ? doc.header : 'Authorization';
      const prefix = typeof doc.prefix === 'string' && doc.prefix !== '' ? `${doc.prefix} ` : '';
      return `Requires a session of login type \`${String(doc.loginType)}\`: its access token as \`${header}: ${prefix}<token>\`.`;
    }
    case 'permission':
      return `Requires permission ${quoted(doc.permissions ?? [], doc.mode)}.`;
    case 'role':
      return `Requires role ${quoted(doc.roles ?? [], doc.mode)}.`;
    case 'step-up':
      return (
        `Step-up: the session must have authenticated within the last ${String(doc.maxAgeSeconds)} seconds ` +
        '(login or `POST /auth/step-up`), else 403 `step-up-required`.'
      );
    case 'rate-limit':
      return (
        `Rate limit \`${String(doc.key)}\`: ${String(doc.limit)} requests per ${seconds(doc.windowSeconds)} ` +
        `per ${RATE_LIMIT_SUBJECTS[String(doc.limitType)] ?? 'client IP'}; every answer carries \`RateLimit-Policy\` and \`RateLimit\`, ` +
        `and beyond the limit it answers ${ERROR_CATALOGUE['rate-limited'].status} with \`Retry-After\`.`
      );
    case 'signature':
      return (
        'Signed request: v1 (X-App-Key, X-Timestamp, X-Nonce, X-Sign) or, for apps configured for it, ' +
        'RFC 9421 (Signature-Input, Signature, Content-Digest).' +
        (doc.enabled === false ? ' Signature checking is off in this deployment (svc.security.sign.enabled=false).' : '')
      );
    case 'idempotency':
      return describeIdempotency(doc);
    default:
      return undefined;
  }
}

/** The operation's description: its summary, then what each guard requires, in the order they run. */
export function describeOperation(def: RouteDef): string {
  const summary = /[.!?]$/.test(def.summary) ? def.summary : `${def.summary}.`;
  const rules = (def.guards ?? []).map((g) => describeGuard(g.doc)).filter((s): s is string => s !== undefined);
  const requiresLogin = (def.guards ?? []).some((g) => g.doc.kind === 'login');
  if (!requiresLogin) rules.unshift('Public: no session needed.');
  return [summary, rules.join(' ')].join('\n\n');
}

function operationIdOf(method: string, openApiPath: string): string {
  const camel = openApiPath.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase());
  return `${method}${camel}`;
}

/**
 * Hands out operationIds (`get` + the path in camel case: `getSystemUserList`). A second route with
 * the same method and path is not reachable (the router matches the first), so it gets none; two
 * paths that spell the same id (`/a-b`, `/a/b`) get `…2`, `…3` so both stay documented.
 */
export class OperationIds {
  private readonly byRoute = new Set<string>();
  private readonly ids = new Set<string>();

  claim(method: string, openApiPath: string): string | undefined {
    const route = `${method} ${openApiPath}`;
    if (this.byRoute.has(route)) return undefined;
    this.byRoute.add(route);
    const base = operationIdOf(method, openApiPath);
    let id = base;
    for (let n = 2; this.ids.has(id); n++) id = `${base}${n}`;
    this.ids.add(id);
    return id;
  }
}
