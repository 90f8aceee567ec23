/**
 * Route table: each route declares its method, path, guards (in order) and body schema in one
 * visible place. The same declarations build the router (and later the API description).
 */
import type Router from '@koa/router';
import type { z } from 'zod';
import { DomainError, type FieldError, type Reason } from '../../domain/errors';
import type { Guard } from './guards';
import { MemoRouter } from './memo-router';
import type { AppContext, AppMiddleware, AppState } from './state';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The reasons body validation (`RouteDef.body`) may answer with. */
export const BODY_VALIDATION_REASONS: readonly Reason[] = ['validation-failed'];

/** What a raw handler writes: each media type (no parameters) with its body schema. */
export interface RawResponse {
  readonly content: Readonly<Record<string, z.ZodTypeAny>>;
  /** Statuses besides the success status that the handler writes itself, same content, with what they mean (e.g. 503 DOWN). */
  readonly otherStatuses?: Readonly<Record<number, string>>;
}

interface RouteBase {
  readonly method: HttpMethod;
  readonly path: string;
  readonly summary: string;
  readonly tags?: readonly string[];
  /** Guards run in this order, before body validation and the handler; each declares the reasons it may answer with. */
  readonly guards?: readonly Guard[];
  /** JSON body schema; the parsed value is in `ctx.state.body`. */
  readonly body?: z.ZodTypeAny;
  /** Query-string schema (an object of its parameters); the parsed value is in `ctx.state.query`. */
  readonly query?: z.AnyZodObject;
  /** The failures the handler may raise: the `reasons` of the use cases it calls (guards declare their own). */
  readonly raises?: readonly Reason[];
  readonly handler: (ctx: AppContext) => Promise<unknown>;
}

/** A JSON route: its return value, in the app's format; `response` describes it (`z.null()` when it carries nothing). */
interface JsonRoute extends RouteBase {
  readonly raw?: undefined;
  readonly successStatus?: 200 | 201 | 202;
  readonly response: z.ZodTypeAny;
}

/** A route that answers 204 with no content. */
interface NoContentRoute extends RouteBase {
  readonly raw?: undefined;
  readonly successStatus: 204;
  readonly response?: undefined;
}

/**
 * The handler writes `ctx.status` / `ctx.body` itself instead of returning data for the app's
 * envelope (health probes, Prometheus text, HTML, assets); `raw` declares what it writes.
 */
interface RawRoute extends RouteBase {
  readonly raw: RawResponse;
  readonly successStatus?: 200;
  readonly response?: undefined;
}

export type RouteDef = JsonRoute | NoContentRoute | RawRoute;

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

/** Validates the query string; problems point at `/query/<name>`. */
export function validateQuery(schema: z.AnyZodObject): AppMiddleware {
  return async function validateQuery(ctx, next) {
    const parsed = schema.safeParse(ctx.query);
    if (!parsed.success) {
      throw new DomainError('validation-failed', 'The query is not valid.', {
        errors: zodIssuesToFieldErrors(parsed.error.issues).map((e) => ({ ...e, pointer: `/query${e.pointer}` })),
      });
    }
    ctx.state.query = parsed.data;
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
  const router = new MemoRouter();
  for (const def of defs) {
    const chain: AppMiddleware[] = [...(def.guards ?? [])];
    if (def.query) chain.push(validateQuery(def.query));
    if (def.body) chain.push(validateBody(def.body));
    chain.push(respond(def));
    router.register(def.path, [def.method.toUpperCase()], chain as never, { name: `${def.method} ${def.path}` });
  }
  return router;
}
