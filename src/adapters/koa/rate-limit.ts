/**
 * The rate-limit guard, declared per route: `rateLimit({key, windowSeconds, limit, limitType})`.
 * Sliding window (no more than `limit` in any `windowSeconds` span). Every answer carries the IETF
 * draft headers `RateLimit-Policy: "<key>";q=<limit>;w=<window>` and
 * `RateLimit: "<key>";r=<remaining>;t=<seconds>`; a rejection is 429 with `Retry-After`. A route
 * with two limiters (per IP, then per session) lists both policies, comma-separated (the draft's
 * list form), the one that ran first first. An `EMAIL` limit counts per address the JSON body names
 * (a digest of its folded form: `Ann@x.org` and `ann@x.org` share a budget, and no address is kept in clear).
 */
import { DomainError } from '../../domain/errors';
import { CheckRateLimit, type RateLimitPolicy } from '../../application/auth/check-rate-limit';
import { emailDigest } from '../../application/users/email-digest';
import { rateLimitSubjectOf } from './client-ip';
import { guard, type Guard } from './guards';

/** The IETF draft headers every answer of a rate-limited route carries (refusals too). */
export const RATE_LIMIT_HEADERS: Readonly<Record<string, string>> = {
  'RateLimit-Policy': 'The limit: "<key>";q=<requests>;w=<window seconds> (IETF draft-ietf-httpapi-ratelimit-headers)',
  RateLimit: 'What is left: "<key>";r=<remaining requests>;t=<seconds until the window frees one>',
};

export type RateLimitGuardFactory = (policy: RateLimitPolicy) => Guard;

/** `scope` separates the counters of the two apps (admin "login" vs web "login"). */
export function rateLimiter(check: CheckRateLimit, scope: string): RateLimitGuardFactory {
  return (policy) =>
    guard(
      { kind: 'rate-limit', ...policy, reasons: ['rate-limited', ...CheckRateLimit.reasons], responseHeaders: RATE_LIMIT_HEADERS },
      async function rateLimit(ctx, next) {
        let subject = rateLimitSubjectOf(ctx.state.clientIp);
        const auth = ctx.state.auth;
        if (policy.limitType === 'USER') {
          if (!auth) throw new Error(`rate limit "${policy.key}" of type USER used without requireLogin`);
          subject = `${auth.loginType}:${auth.user.userId}`;
        } else if (policy.limitType === 'SESSION') {
          if (!auth) return next(); // no session presented: the route's IP limit counts the request
          subject = `${auth.loginType}:${auth.record.tokenId}`;
        } else if (policy.limitType === 'EMAIL') {
          const email = bodyEmailOf(ctx.request as { body?: unknown });
          if (email === null) return next(); // no address: the body's validation refuses the request
          subject = `email:${emailDigest(email)}`;
        }
        const d = await check.execute({ policy, scope, subject });
        const headers = {
          'RateLimit-Policy': listed(ctx.response.get('RateLimit-Policy'), `"${policy.key}";q=${policy.limit};w=${policy.windowSeconds}`),
          RateLimit: listed(
            ctx.response.get('RateLimit'),
            `"${policy.key}";r=${d.remaining};t=${Math.ceil((d.allowed ? d.resetMs : d.retryAfterMs) / 1000)}`,
          ),
        };
        if (!d.allowed) {
          throw new DomainError(
            'rate-limited',
            `Too many requests; at most ${policy.limit} per ${policy.windowSeconds} seconds. Retry later.`,
            {
              retryAfterSeconds: Math.max(1, Math.ceil(d.retryAfterMs / 1000)),
              headers,
            },
          );
        }
        for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
        await next();
      },
    );
}

/** The `email` of a JSON object body (the body parser ran before the guards), or null. */
function bodyEmailOf(request: { body?: unknown }): string | null {
  const body = request.body;
  if (typeof body !== 'object' || body === null || !('email' in body)) return null;
  const email = (body as { email?: unknown }).email;
  return typeof email === 'string' && email.trim() !== '' ? email : null;
}

/** Appends one limiter's item to what an earlier limiter of the route set (a structured-field list). */
function listed(earlier: string, item: string): string {
  return earlier === '' ? item : `${earlier}, ${item}`;
}
