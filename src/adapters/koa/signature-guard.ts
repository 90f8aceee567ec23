/**
 * The request-signing guard: declare it beside a route to require a signed request, either the
 * seed's v1 headers (X-App-Key/X-Timestamp/X-Nonce/X-Sign) or RFC 9421 (Signature-Input/Signature).
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { VerifySignature, type SignedRequest } from '../../application/signing/verify-signature';
import { guard, type Guard } from './guards';
import type { AppContext } from './state';

export const SIGN_HEADER_NAMES = ['X-App-Key', 'X-Timestamp', 'X-Nonce', 'X-Sign', 'Signature-Input', 'Signature', 'Content-Digest'] as const;

/**
 * The RFC 9421 `@target-uri` of a request: the Koa app's configured public base URL
 * (`svc.security.sign.public-urls`, what a proxy maps to the app's root) followed by the request
 * target as received; without one, `http://` or `https://` (the connection's own TLS) + the Host
 * header + the request target. Normalised as WHATWG URLs are (lower-case host, no default port);
 * '' when no URI can be formed.
 */
export function targetUriOf(req: IncomingMessage, publicUrl: string | undefined): string {
  const target = req.url ?? '';
  if (!target.startsWith('/')) return '';
  const origin = publicUrl ?? `${(req.socket as Partial<TLSSocket>).encrypted === true ? 'https' : 'http'}://${req.headers.host ?? ''}`;
  try {
    return new URL(origin + target).href;
  } catch {
    return '';
  }
}

/** Every field of the request by lower-case name, each occurrence in order. */
function headersOf(req: IncomingMessage): Map<string, readonly string[]> {
  return new Map(Object.entries(req.headersDistinct).map(([name, values]) => [name, values ?? []]));
}

/** The request as the signature checks see it: body bytes as received, never re-serialised JSON. */
export function signedRequestOf(ctx: AppContext, publicUrl: string | undefined): SignedRequest {
  const raw = (ctx.request as { rawBody?: unknown }).rawBody;
  return {
    method: ctx.req.method ?? '',
    targetUri: targetUriOf(ctx.req, publicUrl),
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
  return guard({ kind: 'signature', enabled: verify.enabled, headers: SIGN_HEADER_NAMES, reasons: VerifySignature.reasons }, async function requireSignature(ctx, next) {
    const appName = (ctx.state as { realm?: string }).realm ?? '';
    const result = await verify.execute(signedRequestOf(ctx, verify.publicUrlOf(appName)));
    if (result.verified) ctx.state.signedBy = result.appKey;
    await next();
  });
}
