/**
 * Route table: each route declares its method, path, guards (in order) and body schema in one
 * visible place. The same declarations build the router (and later the API description).
 */
import Router from '@koa/router';
import type { z } from 'zod';
import { DomainError, type FieldError } from '../../domain/errors';
import type { Guard } from './guards';
import type { AppContext, AppMiddleware, AppState } from './state';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteDef {
  readonly method: HttpMethod;
  readonly path: string;
  readonly summary: string;
  readonly tags?: readonly string[];
  /** Guards run in this order, before body validation and the handler. */
  readonly guards?: readonly Guard[];
  /** JSON body schema; the parsed value is in `ctx.state.body`. */
  readonly body?: z.ZodTypeAny;
  /** Response data schema (documentation). */
  readonly response?: z.ZodTypeAny;
  readonly successStatus?: number;
  /**
   * The handler writes `ctx.status` / `ctx.body` itself instead of returning data for the app's
   * envelope (health probes, Prometheus text, HTML). `contentType` documents the response.
   */
  readonly raw?: { readonly contentType: string };
  readonly handler: (ctx: AppContext) => Promise<unknown>;
}

export function zodIssuesToFieldErrors(issues: readonly z.ZodIssue[]): FieldError[] {
  return issues.map((i) => ({
    pointer: '/' + i.path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/'),
    detail: i.message,
  }));
}

export function validateBody(schema: z.ZodTypeAny): AppMiddleware {
  return async function validateBody(ctx, next) {
    const raw = (ctx.request as { body?: unknown }).body;
    const parsed = schema.safeParse(raw === undefined ? {} : raw);
    if (!parsed.success) {
      throw new DomainError('validation-failed', 'The request body is not valid.', { errors: zodIssuesToFieldErrors(parsed.error.issues) });
    }
    ctx.state.body = parsed.data;
    await next();
  };
}

/** Wraps a handler: its return value becomes the success body, in the app's format. */
function respond(def: RouteDef): AppMiddleware {
  return async function handler(ctx) {
    if (def.raw) {
      await def.handler(ctx);
      return;
    }
    const data = await def.handler(ctx);
    ctx.state.responder.success(ctx, data, def.successStatus ?? 200);
  };
}

export function buildRouter(defs: readonly RouteDef[]): Router<AppState> {
  const router = new Router<AppState>();
  for (const def of defs) {
    const chain: AppMiddleware[] = [...(def.guards ?? [])];
    if (def.body) chain.push(validateBody(def.body));
    chain.push(respond(def));
    router.register(def.path, [def.method.toUpperCase()], chain as never, { name: `${def.method} ${def.path}` });
  }
  return router;
}
