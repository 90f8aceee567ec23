/** The request-signing guard: declare it beside a route to require X-App-Key/X-Timestamp/X-Nonce/X-Sign. */
import type { VerifySignature } from '../../application/signing/verify-signature';
import { guard, type Guard } from './guards';

export const SIGN_HEADER_NAMES = ['X-App-Key', 'X-Timestamp', 'X-Nonce', 'X-Sign'] as const;

/**
 * Verifies the signature over the body bytes as received (`ctx.request.rawBody`, kept by the
 * JSON body parser; "" when there is no body), never over re-serialised JSON. On success the
 * app key is in `ctx.state.signedBy`. With `svc.security.sign.enabled=false` it lets every request through.
 */
export function requireSignature(verify: VerifySignature): Guard {
  return guard({ kind: 'signature', enabled: verify.enabled, headers: SIGN_HEADER_NAMES }, async function requireSignature(ctx, next) {
    const header = (name: string): string | undefined => {
      const v = ctx.req.headers[name.toLowerCase()];
      return typeof v === 'string' ? v : undefined;
    };
    const raw = (ctx.request as { rawBody?: unknown }).rawBody;
    const result = await verify.execute({
      appKey: header('X-App-Key'),
      timestamp: header('X-Timestamp'),
      nonce: header('X-Nonce'),
      sign: header('X-Sign'),
      body: typeof raw === 'string' ? raw : '',
    });
    if (result.verified) ctx.state.signedBy = result.appKey;
    await next();
  });
}
