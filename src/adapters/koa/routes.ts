/**
 * Route table: each route declares its method, path, guards (in order) and body schema in one
 * visible place. The same declarations build the router (and later the API description).
 *
 * Routes are declared with `route()`, which infers the handler's input from the declaration:
 * `body` and `query` are the outputs of their schemas, `params` has one string per `:name` of the
 * path literal; a JSON route's handler must return what its `response` schema accepts. `RouteDef`
 * (what the router, the API description and the apps hold) can only be made by `route()`.
 */
import type Router from '@koa/router';
import type { z } from 'zod';
import { DomainError, type FieldError, type Reason } from '../../domain/errors';
import { auditedRoute, type EdgeAudit, type RouteAudit } from './audit-edge';
import type { Guard } from './guards';
import { MemoRouter } from './memo-router';
import { unfilteredQuery } from './xss-filter';
import type { AppContext, AppMiddleware, AppState } from './state';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The reasons body validation (`RouteDef.body`) may answer with. */
export const BODY_VALIDATION_REASONS: readonly Reason[] = ['validation-failed'];

/** What a raw handler writes: each media type (no parameters) with its body schema. */
export interface RawResponse {
  readonly content: Readonly<Record<string, z.ZodTypeAny>>;
  /** Statuses besides the success status that the handler writes itself, same content, with what they mean (e.g. 503 DOWN). */
  readonly otherStatuses?: Readonly<Record<number, string>>;
  /** Statuses the handler answers with no content, with what they mean (e.g. 304 on a matching If-None-Match). */
  readonly emptyStatuses?: Readonly<Record<number, string>>;
  /** Response headers of the success (and the empty statuses), by name, with what they carry. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The names of a path's `:name` parameters: `'/system/user/:id/roles'` gives `'id'`. Plain
 * `:name` segments only (no path-to-regexp modifiers or custom patterns, which no route uses); a
 * path that is not a literal (`string`) has none.
 */
export type PathParamNames<P extends string> = P extends `${string}:${infer Rest}`
  ? Rest extends `${infer Name}/${infer Tail}`
    ? Name | PathParamNames<Tail>
    : Rest
  : never;

/** The router's decoded path parameters of `P`, each a non-empty string. */
export type PathParams<P extends string> = { readonly [K in PathParamNames<P>]: string };

type BodySchema = z.ZodTypeAny | undefined;
type QuerySchema = z.AnyZodObject | undefined;
/** What validation leaves of a declared schema (its output); `undefined` when none is declared. */
type Parsed<S> = S extends z.ZodTypeAny ? z.output<S> : undefined;
/** The names of a query schema's parameters (none without a schema). */
type QueryName<Q> = Q extends z.AnyZodObject ? keyof z.input<Q> & string : never;

/** A handler's validated input, typed from its route's declaration. */
export interface RouteInput<P extends string, B extends BodySchema, Q extends QuerySchema> {
  /** The body as `body` parsed it (the route declares none: `undefined`). */
  readonly body: Parsed<B>;
  /** The query string as `query` parsed it (the route declares none: `undefined`; the raw one stays in `ctx.query`). */
  readonly query: Parsed<Q>;
  readonly params: PathParams<P>;
}

export type RouteHandler<P extends string, B extends BodySchema, Q extends QuerySchema, Out> = (
  ctx: AppContext,
  input: RouteInput<P, B, Q>,
) => Promise<Out>;

interface SpecBase<P extends string, B extends BodySchema, Q extends QuerySchema> {
  readonly method: HttpMethod;
  /** A literal where it has `:name` parameters, so that the handler's `params` name them. */
  readonly path: P;
  readonly summary: string;
  readonly tags?: readonly string[];
  /** Guards run in this order, before body validation and the handler; each declares the reasons it may answer with. */
  readonly guards?: readonly Guard[];
  /** JSON body schema; the handler gets its output as `input.body`. */
  readonly body?: B;
  /** Query-string schema (an object of its parameters); the handler gets its output as `input.query`. */
  readonly query?: Q;
  /**
   * Query parameters that are search terms: only compared with stored text, never rendered (the JSON answer is what
   * a front end renders, and encodes). The input filter's HTML escaping does not reach them: `input.query` has them as
   * the client sent them (docs/request-protection.md#input-filter-xss). Every other parameter stays filtered.
   */
  readonly searchTerms?: readonly QueryName<Q>[];
  /** The failures the handler may raise: the `reasons` of the use cases it calls (guards declare their own). */
  readonly raises?: readonly Reason[];
  /** The security event the route records when it answers (docs/audit.md); without it, a success records nothing. */
  readonly audit?: RouteAudit<PathParams<P>, Parsed<B>>;
}

/**
 * What a JSON handler may return for a schema's type: the same, with any array or object read-only
 * (use cases hand out read-only views; only JSON serialisation reads them).
 */
export type Serialisable<T> = T extends (infer E)[]
  ? readonly Serialisable<E>[]
  : T extends object
    ? { readonly [K in keyof T]: Serialisable<T[K]> }
    : T;

/**
 * A JSON route: its return value, in the app's format; `response` describes it (`z.null()` when it
 * carries nothing). The handler returns `z.input` of `response`: the value is serialised as it is,
 * never parsed by the schema, so what it must be is a value the schema accepts (which is also what
 * the API description, generated from the schema, shows). `O` is what the handler really returns.
 */
export interface JsonRouteSpec<
  P extends string,
  B extends BodySchema,
  Q extends QuerySchema,
  R extends z.ZodTypeAny,
  O extends Serialisable<z.input<R>> = Serialisable<z.input<R>>,
> extends SpecBase<P, B, Q> {
  readonly raw?: undefined;
  readonly successStatus?: 200 | 201 | 202;
  readonly response: R;
  readonly handler: RouteHandler<P, B, Q, O>;
}

/** A route that answers 204 with no content. */
export interface NoContentRouteSpec<P extends string, B extends BodySchema, Q extends QuerySchema> extends SpecBase<P, B, Q> {
  readonly raw?: undefined;
  readonly successStatus: 204;
  readonly response?: undefined;
  readonly handler: RouteHandler<P, B, Q, void>;
}

/**
 * The handler writes `ctx.status` / `ctx.body` itself instead of returning data for the app's
 * envelope (health probes, Prometheus text, HTML, assets); `raw` declares what it writes.
 */
export interface RawRouteSpec<P extends string, B extends BodySchema, Q extends QuerySchema> extends SpecBase<P, B, Q> {
  readonly raw: RawResponse;
  readonly successStatus?: 200;
  readonly response?: undefined;
  readonly handler: RouteHandler<P, B, Q, void>;
}

/** Only `route()` makes a `RouteDef`, so every mounted handler is typed from its declaration. */
const DECLARED: unique symbol = Symbol('declared by route()');

/** A declared route as the router and the API description see it: the handler takes the context only. */
type Declared<S> = Omit<S, 'handler'> & { readonly handler: (ctx: AppContext) => Promise<unknown>; readonly [DECLARED]: true };

export type RouteDef =
  | Declared<JsonRouteSpec<string, BodySchema, QuerySchema, z.ZodTypeAny>>
  | Declared<NoContentRouteSpec<string, BodySchema, QuerySchema>>
  | Declared<RawRouteSpec<string, BodySchema, QuerySchema>>;

/**
 * Declares a route. Its handler gets `(ctx, { body, query, params })`, typed from `body`, `query`
 * and the path literal; a JSON route's handler must return what `response` accepts, a 204 or raw
 * route's returns nothing. Handlers still read headers, cookies and `ctx.state` from `ctx`.
 *
 * A JSON handler's return type is a `const` type parameter checked against the response, not the
 * response itself as the contextual type: TypeScript widens literals (`true`, `'UP'`) returned
 * against a type that depends on a schema still being inferred, and would refuse `{ done: true }`
 * for `z.literal(true)`.
 */
export function route<
  P extends string,
  R extends z.ZodTypeAny,
  const O extends Serialisable<z.input<R>>,
  B extends BodySchema = undefined,
  Q extends QuerySchema = undefined,
>(spec: JsonRouteSpec<P, B, Q, R, O>): RouteDef;
export function route<P extends string, B extends BodySchema = undefined, Q extends QuerySchema = undefined>(
  spec: NoContentRouteSpec<P, B, Q>,
): RouteDef;
export function route<P extends string, B extends BodySchema = undefined, Q extends QuerySchema = undefined>(
  spec: RawRouteSpec<P, B, Q>,
): RouteDef;
export function route(
  spec:
    | JsonRouteSpec<string, BodySchema, QuerySchema, z.ZodTypeAny>
    | NoContentRouteSpec<string, BodySchema, QuerySchema>
    | RawRouteSpec<string, BodySchema, QuerySchema>,
): RouteDef {
  const { handler, ...declaration } = spec;
  // validateBody / validateQuery ran this route's own schemas and the router matched its own path,
  // so what they left is each overload's typed input (here, the schemas' `any` output).
  const run = (ctx: AppContext): Promise<unknown> => handler(ctx, { body: ctx.state.body, query: ctx.state.query, params: ctx.params });
  return { ...declaration, handler: run, [DECLARED]: true };
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

/** The query string parsed by `schema`; problems point at `/query/<name>` (422 validation-failed). */
export function parseQuery<O>(schema: z.ZodType<O, z.ZodTypeDef, unknown>, query: unknown): O {
  const parsed = schema.safeParse(query);
  if (!parsed.success) {
    throw new DomainError('validation-failed', 'The query is not valid.', {
      errors: zodIssuesToFieldErrors(parsed.error.issues).map((e) => ({ ...e, pointer: `/query${e.pointer}` })),
    });
  }
  return parsed.data;
}

/** Validates the query string, `searchTerms` as sent (unfiltered); problems point at `/query/<name>`. */
export function validateQuery(schema: z.AnyZodObject, searchTerms: readonly string[] = []): AppMiddleware {
  return async function validateQuery(ctx, next) {
    ctx.state.query = parseQuery(schema, unfilteredQuery(ctx, searchTerms));
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
    if (def.audit !== undefined) ctx.state.result = data;
    ctx.state.responder.success(ctx, data, def.successStatus ?? 200);
  };
}

/** `audit`: where the routes that declare `audit` record (none: nothing is recorded). */
export function buildRouter(defs: readonly RouteDef[], audit?: EdgeAudit): Router<AppState> {
  const router = new MemoRouter();
  for (const def of defs) {
    const chain: AppMiddleware[] = [
      ...(def.audit !== undefined && audit !== undefined ? [auditedRoute(def.audit as RouteAudit, audit)] : []),
    ];
    chain.push(...(def.guards ?? []));
    if (def.query) chain.push(validateQuery(def.query, def.searchTerms));
    if (def.body) chain.push(validateBody(def.body));
    chain.push(respond(def));
    router.register(def.path, [def.method.toUpperCase()], chain as never, { name: `${def.method} ${def.path}` });
  }
  return router;
}
