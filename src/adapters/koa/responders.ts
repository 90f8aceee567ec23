/**
 * One error catalogue, two renderers: the admin `{code, message, data}` envelope and
 * RFC 9457 problem details for the web app.
 */
import type { Context } from 'koa';
import type { DomainError } from '../../domain/errors';
import { ERROR_CATALOGUE } from './error-catalogue';
import type { Responder } from './state';

function applyErrorHeaders(ctx: Context, err: DomainError, status: number): void {
  const x = err.extras;
  for (const [k, v] of Object.entries(x.headers ?? {})) ctx.set(k, v);
  if (x.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(Math.max(0, Math.ceil(x.retryAfterSeconds))));
  if (status === 401) {
    const realm = x.loginType ?? (ctx.state as { realm?: string }).realm ?? 'api';
    let value = `Bearer realm="${realm}"`;
    if (x.tokenPresented) value += `, error="invalid_token", error_description="${err.message.replace(/["\\]/g, '')}"`;
    ctx.set('WWW-Authenticate', value);
  }
}

export class EnvelopeResponder implements Responder {
  success(ctx: Context, data: unknown, status: number): void {
    ctx.status = status;
    ctx.body = { code: 0, message: 'ok', data: data ?? null };
  }
  error(ctx: Context, err: DomainError): void {
    const entry = ERROR_CATALOGUE[err.reason];
    ctx.status = entry.status;
    applyErrorHeaders(ctx, err, entry.status);
    const body: Record<string, unknown> = { code: entry.code, message: err.message, data: null };
    if (err.extras.errors) body.errors = err.extras.errors;
    ctx.body = body;
  }
}

export class ProblemResponder implements Responder {
  constructor(private readonly typeBase: string) {}
  success(ctx: Context, data: unknown, status: number): void {
    ctx.status = status;
    ctx.body = data ?? null;
    if (status === 204) ctx.body = null;
  }
  error(ctx: Context, err: DomainError): void {
    const entry = ERROR_CATALOGUE[err.reason];
    ctx.status = entry.status;
    applyErrorHeaders(ctx, err, entry.status);
    const body: Record<string, unknown> = {
      type: this.typeBase + err.reason,
      title: entry.title,
      status: entry.status,
      detail: err.message,
      instance: `urn:request:${(ctx.state as { requestId?: string }).requestId ?? 'unknown'}`,
      code: err.reason,
    };
    if (err.extras.errors) body.errors = err.extras.errors;
    ctx.body = body;
    ctx.type = 'application/problem+json';
  }
}
