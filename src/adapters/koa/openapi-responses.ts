/**
 * The responses of one operation in the API description: the success payload the route declares
 * (in the app's format: the admin envelope's `data`, or the body itself on the web app; raw routes
 * their own media types; no content on 204), then one error response per status, listing every
 * reason the route can answer with. Those reasons are derived, never listed by hand: what the edge
 * answers any request with, what the JSON body parser answers a body method with, body
 * validation, each guard's declared reasons and the reasons of the use cases the handler calls.
 */
import { z } from 'zod';
import type { Reason } from '../../domain/errors';
import { ERROR_CATALOGUE } from './error-catalogue';
import { PARSER_REASONS } from './http-server';
import { BODY_METHODS, EDGE_REASONS, JSON_BODY_REASONS } from './middleware';
import { BODY_VALIDATION_REASONS, type RouteDef } from './routes';

export type ErrorFormat = 'envelope' | 'problem';

export interface ErrorMedia {
  readonly format: ErrorFormat;
  /** Component name of the error body schema. */
  readonly schema: string;
  readonly mediaType: string;
}

/** Every reason a route can answer with, guards and handler included, in a stable order. */
export function reasonsOf(def: RouteDef): Set<Reason> {
  const reasons = new Set<Reason>([...PARSER_REASONS, ...EDGE_REASONS]);
  if (BODY_METHODS.has(def.method.toUpperCase())) JSON_BODY_REASONS.forEach((r) => reasons.add(r));
  if (def.body) BODY_VALIDATION_REASONS.forEach((r) => reasons.add(r));
  for (const g of def.guards ?? []) g.doc.reasons.forEach((r) => reasons.add(r));
  (def.raises ?? []).forEach((r) => reasons.add(r));
  return reasons;
}

/** The HTTP statuses a route can answer with besides its success ones. */
export function errorStatusesOf(def: RouteDef): Set<number> {
  return new Set([...reasonsOf(def)].map((r) => ERROR_CATALOGUE[r].status));
}

/** Reasons whose answer carries Retry-After (the error's retryAfterSeconds). */
const RETRY_AFTER: ReadonlySet<Reason> = new Set<Reason>([
  'rate-limited',
  'account-locked',
  'idempotency-in-progress',
  'store-unavailable',
  'server-busy',
  'directory-unavailable',
]);

type HeaderObject = { description: string; required?: boolean; schema: { type: 'string' | 'integer' } };

function describedHeaders(headers: Readonly<Record<string, string>>): Record<string, HeaderObject> {
  return Object.fromEntries(Object.entries(headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]));
}

function errorHeaders(
  status: number,
  reasons: readonly Reason[],
  guardHeaders: Readonly<Record<string, string>>,
): Record<string, HeaderObject> | undefined {
  const headers: Record<string, HeaderObject> = {};
  if (status === 401)
    headers['WWW-Authenticate'] = { description: 'Bearer realm="<login type>"[, error="invalid_token"]', schema: { type: 'string' } };
  const retrying = reasons.filter((r) => RETRY_AFTER.has(r));
  if (retrying.length > 0) {
    headers['Retry-After'] = {
      description: 'Seconds to wait before retrying',
      required: retrying.length === reasons.length,
      schema: { type: 'integer' },
    };
  }
  if (status === 429) Object.assign(headers, describedHeaders(guardHeaders));
  return Object.keys(headers).length > 0 ? headers : undefined;
}

function successResponses(def: RouteDef, err: ErrorMedia, guardHeaders: Readonly<Record<string, string>>): Record<string, unknown> {
  const headers = Object.keys(guardHeaders).length > 0 ? { headers: describedHeaders(guardHeaders) } : {};
  if (def.raw) {
    const content = Object.fromEntries(Object.entries(def.raw.content).map(([type, schema]) => [type, { schema }]));
    const own = { ...guardHeaders, ...def.raw.headers };
    const rawHeaders = Object.keys(own).length > 0 ? { headers: describedHeaders(own) } : {};
    const out: Record<string, unknown> = { [String(def.successStatus ?? 200)]: { description: def.summary, ...rawHeaders, content } };
    for (const [status, description] of Object.entries(def.raw.otherStatuses ?? {})) out[status] = { description, content };
    for (const [status, description] of Object.entries(def.raw.emptyStatuses ?? {})) out[status] = { description, ...rawHeaders };
    return out;
  }
  if (def.successStatus === 204) return { '204': { description: 'Done: no content', ...headers } };
  const data = def.response;
  const schema = err.format === 'envelope' ? z.object({ code: z.literal(0), message: z.literal('ok'), data }) : data;
  const description = err.format === 'envelope' ? 'Success: the envelope with code 0 and the data' : 'Success';
  return { [String(def.successStatus ?? 200)]: { description, ...headers, content: { 'application/json': { schema } } } };
}

/** The success response(s), then one error response per status, listing its reasons. */
export function responsesOf(def: RouteDef, err: ErrorMedia): Record<string, unknown> {
  const guardHeaders: Record<string, string> = Object.assign({}, ...(def.guards ?? []).map((g) => g.doc.responseHeaders ?? {}));
  const responses = successResponses(def, err, guardHeaders);
  const byStatus = new Map<number, Reason[]>();
  for (const r of reasonsOf(def)) {
    const s = ERROR_CATALOGUE[r].status;
    byStatus.set(s, [...(byStatus.get(s) ?? []), r]);
  }
  for (const [s, rs] of [...byStatus.entries()].sort((a, b) => a[0] - b[0])) {
    const list = rs.map((r) => `\`${r}\` (${ERROR_CATALOGUE[r].code}): ${ERROR_CATALOGUE[r].title}`).join('; ');
    const headers = errorHeaders(s, rs, guardHeaders);
    const errorResponse = {
      description: list,
      ...(headers ? { headers } : {}),
      content: { [err.mediaType]: { schema: { $ref: `#/components/schemas/${err.schema}` } } },
    };
    const own = responses[String(s)] as { description: string; content: Record<string, unknown> } | undefined;
    // A raw route's own answer with this status (503 DOWN) and the error format share one response.
    responses[String(s)] = own
      ? { description: `${own.description}. Or an error: ${list}`, content: { ...errorResponse.content, ...own.content } }
      : errorResponse;
  }
  return responses;
}
