/**
 * OpenAPI 3.1 description generated from the route table: the same RouteDefs (paths, zod
 * schemas, guards) the router mounts and validates with, never a hand-kept copy. Guards are
 * documented from their `doc`: login -> a bearer scheme per login type; signature -> the
 * signing headers; idempotency -> its header; permission/role -> a note and an x- extension.
 * Responses (openapi-responses.ts): the route's declared success payload, and one error response
 * per status of the reasons its guards, its handler's use cases and the edge may answer with,
 * from the error catalogue, in the app's format (admin envelope or RFC 9457 problem+json).
 */
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { REASONS } from '../../domain/errors';
import type { GuardDoc } from './guards';
import { describeOperation, globalTags, OperationIds, type DocumentMeta } from './openapi-meta';
import { responsesOf, type ErrorFormat, type ErrorMedia } from './openapi-responses';
import type { RouteDef } from './routes';

export type { ErrorFormat } from './openapi-responses';

export interface OpenApiOptions {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
  readonly format: ErrorFormat;
  readonly routes: readonly RouteDef[];
  /** Contact, licence and servers of the deployment (openapi-meta.ts). */
  readonly meta?: DocumentMeta;
}

interface HeaderParam {
  readonly name: string;
  readonly required: boolean;
  readonly description: string;
}

const SIGN_HEADERS: readonly HeaderParam[] = [
  { name: 'X-App-Key', required: false, description: 'v1 scheme: application key registered in svc.security.sign.apps' },
  {
    name: 'X-Timestamp',
    required: false,
    description:
      'v1 scheme: request time in milliseconds since the epoch, digits without leading zeros (within svc.security.sign.timeoutSeconds)',
  },
  { name: 'X-Nonce', required: false, description: 'v1 scheme: one-time random string (replay protection)' },
  {
    name: 'X-Sign',
    required: false,
    description: 'v1 scheme: lowercase hex HMAC-SHA256(key = appSecret, message = appKey + timestamp + nonce + body)',
  },
  {
    name: 'Signature-Input',
    required: false,
    description:
      'RFC 9421 scheme (apps listed in svc.security.sign.schemes): covers "@method", ' +
      '"@target-uri" and, with a body, "content-digest"; created, nonce, keyid = app key, alg="hmac-sha256"',
  },
  {
    name: 'Signature',
    required: false,
    description: 'RFC 9421 scheme: the HMAC-SHA256 of the signature base, as a byte sequence of the same label',
  },
  { name: 'Content-Digest', required: false, description: 'RFC 9421 scheme with a body: RFC 9530 sha-256=:<base64 of the body bytes>:' },
];

/** The request header an idempotency guard reads, if any (its reasons are in its doc). */
function idempotencyHeaderOf(doc: GuardDoc): HeaderParam | undefined {
  // GuardDoc.mode is the AND/OR of permissions; an idempotency guard names its mode in another key.
  const mode = String(doc.idempotencyMode ?? doc.strategy ?? doc.idempotency ?? doc.mode ?? '').toUpperCase();
  const named = typeof doc.header === 'string' ? doc.header : undefined;
  if (mode === 'TOKEN')
    return { name: named ?? 'X-Idempotent-Token', required: true, description: 'A token from GET /idempotent/token, used once' };
  if (mode === 'HEADER' || named !== undefined)
    return { name: named ?? 'Idempotency-Key', required: true, description: 'Client-chosen key; a retry gets the stored result' };
  return undefined;
}

/** `/users/:id(\\d+)` -> `/users/{id}` and its path parameter names. */
export function toOpenApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const out = path.replace(/:([A-Za-z0-9_]+)(\([^)]*\))?\??/g, (_, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: out, params };
}

function schemeName(loginType: string): string {
  return `${loginType}Token`;
}

function securityScheme(doc: GuardDoc): Record<string, unknown> {
  const header = typeof doc.header === 'string' ? doc.header : 'Authorization';
  const prefix = typeof doc.prefix === 'string' ? doc.prefix : 'Bearer';
  const description =
    `Access token of login type "${doc.loginType}" (from its login), sent as \`${header}: ` +
    `${prefix ? prefix + ' ' : ''}<token>\`. A token of the other login type is invalid here.`;
  if (header.toLowerCase() === 'authorization' && prefix.toLowerCase() === 'bearer') {
    return { type: 'http', scheme: 'bearer', description };
  }
  return { type: 'apiKey', in: 'header', name: header, description };
}

const ENVELOPE_ERROR = {
  type: 'object',
  description: 'Admin error envelope: the real HTTP status, a non-zero code and data null',
  required: ['code', 'message', 'data'],
  properties: {
    code: { type: 'integer', description: 'Stable error code (see the error catalogue); 0 means success' },
    message: { type: 'string' },
    data: { type: 'null' },
    errors: { $ref: '#/components/schemas/FieldErrors' },
  },
};

const PROBLEM = {
  type: 'object',
  description: 'RFC 9457 problem details',
  required: ['type', 'title', 'status', 'detail', 'instance', 'code'],
  properties: {
    type: { type: 'string', format: 'uri' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string', description: 'urn:request:<X-Request-Id>' },
    code: { type: 'string', enum: [...REASONS], description: 'The reason (stable)' },
    errors: { $ref: '#/components/schemas/FieldErrors' },
  },
};

const FIELD_ERRORS = {
  type: 'array',
  description: 'Validation problems, one per invalid field',
  items: {
    type: 'object',
    required: ['pointer', 'detail'],
    properties: { pointer: { type: 'string', description: 'JSON Pointer into the request body' }, detail: { type: 'string' } },
  },
};

/** What a route's guards add to its operation besides their responses: headers, security and x- extensions. */
interface GuardEffects {
  readonly headers: HeaderParam[];
  readonly security: Array<Record<string, string[]>>;
  readonly extensions: Record<string, unknown>;
}

function applyGuardDoc(doc: GuardDoc, e: GuardEffects, schemes: Map<string, Record<string, unknown>>): void {
  switch (doc.kind) {
    case 'login': {
      const type = String(doc.loginType);
      if (!schemes.has(type)) schemes.set(type, securityScheme(doc));
      e.security.push({ [schemeName(type)]: [] });
      break;
    }
    case 'permission':
      e.extensions['x-permissions'] = { loginType: doc.loginType, mode: doc.mode ?? 'AND', permissions: doc.permissions ?? [] };
      break;
    case 'role':
      e.extensions['x-roles'] = { loginType: doc.loginType, mode: doc.mode ?? 'AND', roles: doc.roles ?? [] };
      break;
    case 'step-up':
      e.extensions['x-step-up'] = { loginType: doc.loginType, maxAgeSeconds: doc.maxAgeSeconds };
      break;
    case 'rate-limit':
      break;
    case 'signature':
      e.headers.push(...SIGN_HEADERS);
      break;
    case 'idempotency': {
      const header = idempotencyHeaderOf(doc);
      if (header) e.headers.push(header);
      break;
    }
    default:
      break;
  }
  // Any guard may name extra request headers in its doc (its reasons become responses: openapi-responses.ts).
  if (Array.isArray(doc.headers)) {
    for (const h of doc.headers as unknown[]) {
      const hp = h as Partial<HeaderParam>;
      if (typeof hp.name === 'string') e.headers.push({ name: hp.name, required: hp.required ?? false, description: hp.description ?? '' });
    }
  }
}

function guardEffects(def: RouteDef, schemes: Map<string, Record<string, unknown>>): GuardEffects {
  const e: GuardEffects = { headers: [], security: [], extensions: {} };
  for (const g of def.guards ?? []) applyGuardDoc(g.doc, e, schemes);
  return e;
}

/** `info`, `servers` and the global `tags`: everything of the document that is not a path or a component. */
function documentLevel(o: OpenApiOptions) {
  const { contact, license, servers } = o.meta ?? {};
  return {
    info: {
      title: o.title,
      version: o.version,
      ...(o.description ? { description: o.description } : {}),
      ...(contact ? { contact: { ...contact } as Record<string, string> } : {}),
      ...(license ? { license: { ...license } } : {}),
    },
    ...(servers && servers.length > 0 ? { servers: servers.map((s) => ({ ...s })) } : {}),
    tags: globalTags(o.routes),
  };
}

export function buildOpenApiDocument(o: OpenApiOptions): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('schemas', 'FieldErrors', FIELD_ERRORS as never);
  const err: ErrorMedia = {
    format: o.format,
    schema: o.format === 'envelope' ? 'ErrorEnvelope' : 'Problem',
    mediaType: o.format === 'envelope' ? 'application/json' : 'application/problem+json',
  };
  registry.registerComponent('schemas', err.schema, (o.format === 'envelope' ? ENVELOPE_ERROR : PROBLEM) as never);
  const schemes = new Map<string, Record<string, unknown>>();
  const operationIds = new OperationIds();

  for (const def of o.routes) {
    const { path, params } = toOpenApiPath(def.path);
    const operationId = operationIds.claim(def.method, path);
    if (operationId === undefined) continue; // the router would not reach a duplicate either
    const { headers, security, extensions } = guardEffects(def, schemes);
    const responses = responsesOf(def, err);
    registry.registerPath({
      method: def.method,
      path,
      operationId,
      summary: def.summary,
      description: describeOperation(def),
      tags: [...(def.tags ?? [])],
      ...(security.length > 0 ? { security } : {}),
      parameters: [
        ...params.map((name) => ({ name, in: 'path' as const, required: true, schema: { type: 'string' as const } })),
        ...headers.map((h) => ({
          name: h.name,
          in: 'header' as const,
          required: h.required,
          description: h.description,
          schema: { type: 'string' as const },
        })),
      ],
      ...(def.body || def.query
        ? {
            request: {
              ...(def.query ? { query: def.query } : {}),
              // A body whose every field is optional may be left out (the edge reads no body as {}).
              ...(def.body
                ? { body: { required: !def.body.safeParse({}).success, content: { 'application/json': { schema: def.body } } } }
                : {}),
            },
          }
        : {}),
      responses: responses as never,
      ...extensions,
    });
  }
  for (const [type, scheme] of schemes) registry.registerComponent('securitySchemes', schemeName(type), scheme as never);

  const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    ...documentLevel(o),
  });
  return doc as unknown as Record<string, unknown>;
}
