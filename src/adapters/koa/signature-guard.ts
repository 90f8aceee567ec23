/**
 * The request-signing guard: declare it beside a route to require a signed request, either the
 * seed's v1 headers (X-App-Key/X-Timestamp/X-Nonce/X-Sign) or RFC 9421 (Signature-Input/Signature).
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { VerifySignature, type SignedRequest } from '../../application/signing/verify-signature';
import { guard, type Guard } from './guards';
import type { AppContext } from './state';

export const SIGN_HEADER_NAMES = [
  'X-App-Key',
  'X-Timestamp',
  'X-Nonce',
  'X-Sign',
  'Signature-Input',
  'Signature',
  'Content-Digest',
] as const;

/**
 * The RFC 9421 `@target-uri` of a request: the Koa app's configured public base URL
 * (`svc.security.sign.public-urls`, what a proxy maps to the app's root) followed by the request
 * target as received; without one, `http://` or `https://` (the connection's own TLS) + the Host
 * header (only a host and an optional port) + the request target. The origin is normalised as
 * WHATWG URLs are (lower-case host, no default port), the target is kept byte for byte; '' when no
 * URI can be formed, which no signature matches.
 */
export function targetUriOf(req: IncomingMessage, target: string, publicUrl: string | undefined): string {
  if (!target.startsWith('/')) return '';
  let origin = publicUrl;
  if (origin === undefined) {
    // The Host header must be a host and an optional port, nothing else: a Host such as
    // `api.example/v2` would otherwise move part of the signed path into the authority.
    const host = req.headers.host ?? '';
    if (!HOST_HEADER.test(host)) return '';
    origin = `${(req.socket as Partial<TLSSocket>).encrypted === true ? 'https' : 'http'}://${host}`;
  }
  try {
    // The origin is normalised (lower-case scheme and host, no default port); the request target
    // is kept exactly as received, as the client signed what it sent.
    const base = new URL(origin);
    return `${base.origin}${base.pathname.replace(/\/$/, '')}${target}`;
  } catch {
    return '';
  }
}

/** RFC 9110 Host: a reg-name or IPv4 address, or a bracketed IPv6 literal, then an optional port. */
const HOST_HEADER = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

/** Every field of the request by lower-case name, each occurrence in order. */
function headersOf(req: IncomingMessage): Map<string, readonly string[]> {
  return new Map(Object.entries(req.headersDistinct).map(([name, values]) => [name, values ?? []]));
}

/** The request as the signature checks see it: body bytes as received, never re-serialised JSON. */
export function signedRequestOf(ctx: AppContext, publicUrl: string | undefined): SignedRequest {
  const raw = (ctx.request as { rawBody?: unknown }).rawBody;
  return {
    method: ctx.req.method ?? '',
    // The request target as it arrived: the input filter may re-encode ctx.url before this guard runs.
    targetUri: targetUriOf(ctx.req, ctx.originalUrl, publicUrl),
    headers: headersOf(ctx.req),
    body: typeof raw === 'string' ? raw : '',
  };
}

/**
 * Verifies the signature over the body bytes as received (`ctx.request.rawBody`, kept by the JSON
 * body parser; "" when there is none). On success the app key is in `ctx.state.signedBy`. With
 * `svc.security.sign.enabled=false` it lets every request through.
 */
export function requireSignature(verify: VerifySignature): Guard {
  return guard(
    { kind: 'signature', enabled: verify.enabled, headers: SIGN_HEADER_NAMES, reasons: VerifySignature.reasons },
    async function requireSignature(ctx, next) {
      const appName = (ctx.state as { realm?: string }).realm ?? '';
      const result = await verify.execute(signedRequestOf(ctx, verify.publicUrlOf(appName)));
      if (result.verified) ctx.state.signedBy = result.appKey;
      await next();
    },
  );
}
