/**
 * Duplicate-submission guards, declared beside a route after requireLogin (if any):
 *
 *   const { idempotent } = idempotencyGuards(deps);
 *   guards: [requireLogin(managers, 'admin'), requirePermission('admin', 'system:user:add'), idempotent({ mode: 'PARAM', ttlSeconds: 5 })]
 *
 * PARAM (lock on route + caller + parameters), TOKEN (one-time X-Idempotent-Token) and HEADER
 * (Idempotency-Key with stored, replayed responses). A request "fails" when its handler throws
 * or leaves an error status (>= 400); a failed request releases what it took.
 */
import { DomainError, type Reason } from '../../domain/errors';
import { parseIdempotencyKey, type StoredResponse } from '../../domain/idempotency';
import type { Logger } from '../../application/ports/logger';
import { AbandonIdempotentRequest } from '../../application/idempotency/abandon-idempotent-request';
import { BeginIdempotentRequest } from '../../application/idempotency/begin-idempotent-request';
import { CompleteIdempotentRequest } from '../../application/idempotency/complete-idempotent-request';
import type { RunningHandle } from '../../application/idempotency/idempotency-key';
import { ConsumeIdempotencyToken } from '../../application/idempotency/consume-idempotency-token';
import { RestoreIdempotencyToken } from '../../application/idempotency/restore-idempotency-token';
import { AcquireIdempotencyLock } from '../../application/idempotency/acquire-idempotency-lock';
import { ReleaseIdempotencyLock } from '../../application/idempotency/release-idempotency-lock';
import { guard, type Guard } from './guards';
import type { AppContext } from './state';

export const IDEMPOTENT_TOKEN_HEADER = 'X-Idempotent-Token';
/** Marks a response replayed from an Idempotency-Key record. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** Response headers stored with an Idempotency-Key result and replayed with it. */
export const REPLAYED_HEADER_ALLOWLIST = ['content-type', 'location', 'etag', 'last-modified', 'content-language'] as const;

export interface IdempotencyGuardDeps {
  readonly acquireLock: AcquireIdempotencyLock;
  readonly releaseLock: ReleaseIdempotencyLock;
  readonly consumeToken: ConsumeIdempotencyToken;
  readonly restoreToken: RestoreIdempotencyToken;
  readonly begin: BeginIdempotentRequest;
  readonly complete: CompleteIdempotentRequest;
  readonly abandon: AbandonIdempotentRequest;
  /** Name of the HEADER-mode key header (svc.idempotency.header-name). */
  readonly headerName: string;
  readonly log: Logger;
}

const PARAM_REASONS: readonly Reason[] = [...AcquireIdempotencyLock.reasons, ...ReleaseIdempotencyLock.reasons];
const TOKEN_REASONS: readonly Reason[] = [...ConsumeIdempotencyToken.reasons, ...RestoreIdempotencyToken.reasons];
/** A missing key, a malformed one (validation-failed), then the use cases'. */
const HEADER_REASONS: readonly Reason[] = [
  'idempotency-key-missing',
  'validation-failed',
  ...BeginIdempotentRequest.reasons,
  ...CompleteIdempotentRequest.reasons,
  ...AbandonIdempotentRequest.reasons,
];

export type IdempotencyMode =
  { readonly mode: 'PARAM'; readonly ttlSeconds?: number } | { readonly mode: 'TOKEN' } | { readonly mode: 'HEADER' };

/** Which app the request is on (set by requestContext). */
const scopeOf = (ctx: AppContext): string => (ctx.state as { realm?: string }).realm ?? 'app';

/** Method + path template (@koa/router's matched layer), never the concrete path. */
const routeOf = (ctx: AppContext): string => `${ctx.method} ${(ctx as { _matchedRoute?: unknown })._matchedRoute ?? ctx.path}`;

/** The logged-in user when there is one, else the client IP. */
const callerOf = (ctx: AppContext): string => {
  const auth = ctx.state.auth;
  return auth ? `user:${auth.loginType}:${auth.user.userId}` : `ip:${ctx.state.clientIp}`;
};

/** The request's parameters: path params, query and body (null when no body was sent). */
const paramsOf = (ctx: AppContext): unknown => {
  const req = ctx.request as { body?: unknown; rawBody?: unknown };
  const hasBody = typeof req.rawBody === 'string' && req.rawBody !== '';
  return { path: (ctx as { params?: unknown }).params ?? {}, query: ctx.query, body: hasBody ? req.body : null };
};

/** Runs the rest of the chain; reports whether it succeeded, rethrowing after `onFailure`. */
async function runTracked(ctx: AppContext, next: () => Promise<unknown>, onFailure: () => Promise<unknown>): Promise<void> {
  try {
    await next();
  } catch (e) {
    await onFailure().catch(() => undefined); // the original error is what the client must see
    throw e;
  }
  if (ctx.status >= 400) await onFailure();
}

export function idempotencyGuards(deps: IdempotencyGuardDeps): { idempotent(mode: IdempotencyMode): Guard } {
  const param = (ttlSeconds: number | undefined): Guard =>
    guard(
      { kind: 'idempotency', idempotency: 'PARAM', reasons: PARAM_REASONS, ...(ttlSeconds !== undefined ? { ttlSeconds } : {}) },
      async function idempotentParam(ctx, next) {
        const lock = await deps.acquireLock.execute({
          scope: scopeOf(ctx),
          route: routeOf(ctx),
          caller: callerOf(ctx),
          params: paramsOf(ctx),
          ...(ttlSeconds !== undefined ? { ttlSeconds } : {}),
        });
        await runTracked(ctx, next, () => deps.releaseLock.execute(lock));
      },
    );

  const token = (): Guard =>
    guard(
      { kind: 'idempotency', idempotency: 'TOKEN', header: IDEMPOTENT_TOKEN_HEADER, reasons: TOKEN_REASONS },
      async function idempotentToken(ctx, next) {
        const raw = ctx.req.headers[IDEMPOTENT_TOKEN_HEADER.toLowerCase()];
        const consumed = await deps.consumeToken.execute({
          scope: scopeOf(ctx),
          token: typeof raw === 'string' ? raw : undefined,
          session: ctx.state.auth?.record.tokenId,
        });
        await runTracked(ctx, next, () => deps.restoreToken.execute(consumed));
      },
    );

  const header = (): Guard =>
    guard(
      { kind: 'idempotency', idempotency: 'HEADER', header: deps.headerName, reasons: HEADER_REASONS },
      async function idempotentHeader(ctx, next) {
        const key = idempotencyKeyOf(ctx, deps.headerName);
        const begun = await deps.begin.execute({
          scope: scopeOf(ctx),
          route: routeOf(ctx),
          caller: callerOf(ctx),
          key,
          params: paramsOf(ctx),
        });
        if (begun.kind === 'replay') {
          replay(ctx, begun.response);
          return;
        }
        const { handle } = begun;
        await runTracked(ctx, next, () => deps.abandon.execute(handle));
        if (ctx.status >= 400) return; // abandoned above: the client may retry with the same key
        await storeForReplay(deps, ctx, handle);
      },
    );

  return {
    idempotent(mode: IdempotencyMode): Guard {
      if (mode.mode === 'PARAM') {
        if (mode.ttlSeconds !== undefined && !(Number.isInteger(mode.ttlSeconds) && mode.ttlSeconds > 0)) {
          throw new Error(`idempotent PARAM: ttlSeconds must be a positive integer, got ${mode.ttlSeconds}`);
        }
        return param(mode.ttlSeconds);
      }
      return mode.mode === 'TOKEN' ? token() : header();
    },
  };
}

/** The request's Idempotency-Key (named `headerName`); a missing or malformed one is refused. */
function idempotencyKeyOf(ctx: AppContext, headerName: string): string {
  const raw = ctx.req.headers[headerName.toLowerCase()];
  const value = typeof raw === 'string' ? raw : '';
  if (value.trim() === '')
    throw new DomainError(
      'idempotency-key-missing',
      `This request needs an ${headerName} header (a unique value per operation, e.g. a UUID).`,
    );
  const key = parseIdempotencyKey(value);
  if (key === null) {
    throw new DomainError('validation-failed', `${headerName} must be 1 to 255 visible ASCII characters.`, {
      errors: [{ pointer: `/headers/${headerName.toLowerCase()}`, detail: 'expected 1-255 visible ASCII characters' }],
    });
  }
  return key;
}

/** Completes the running record with the response; a response that cannot be stored releases the key instead. */
async function storeForReplay(deps: IdempotencyGuardDeps, ctx: AppContext, handle: RunningHandle): Promise<void> {
  const response = capture(ctx);
  if (response === null) {
    await deps.abandon.execute(handle);
    deps.log.warn({ route: routeOf(ctx) }, 'idempotency: response body cannot be stored for replay; key released');
    return;
  }
  try {
    if (!(await deps.complete.execute({ handle, response }))) {
      deps.log.warn({ route: routeOf(ctx) }, 'idempotency: the running record expired before the request completed');
    }
  } catch (err) {
    // The work is done: answer it. The running record expires after header-lock-seconds.
    deps.log.warn({ route: routeOf(ctx), err: { message: (err as Error).message } }, 'idempotency: could not store the response');
  }
}

/** The response as it will be sent: status, JSON body, allowlisted headers. Null if the body is not JSON data. */
function capture(ctx: AppContext): StoredResponse | null {
  const body: unknown = ctx.body;
  if (
    body !== null &&
    body !== undefined &&
    (typeof body !== 'object' || Buffer.isBuffer(body) || typeof (body as { pipe?: unknown }).pipe === 'function')
  ) {
    return null;
  }
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADER_ALLOWLIST) {
    const v = ctx.response.get(name);
    if (typeof v === 'string' && v !== '') headers[name] = v;
  }
  return { status: ctx.status, body: body === null || body === undefined ? '' : JSON.stringify(body), headers };
}

function replay(ctx: AppContext, response: StoredResponse): void {
  ctx.body = response.body === '' ? null : (JSON.parse(response.body) as unknown);
  ctx.status = response.status; // after the body: Koa turns a null body into 204 otherwise
  for (const [k, v] of Object.entries(response.headers)) ctx.set(k, v);
  ctx.set(REPLAYED_HEADER, 'true');
}
