/**
 * Example handlers that exercise the request protection for real (mounted when
 * `svc.examples.enabled`: on in dev and test, off in prod).
 */
import type { VerifySignature } from '../../../application/signing/verify-signature';
import type { RouteDef } from '../routes';
import type { AppContext } from '../state';
import { requireSignature } from '../signature-guard';

export interface ExampleDeps {
  readonly verifySignature: VerifySignature;
}

/** The parsed JSON body, or null when none was sent (the body parser leaves `{}` then). */
function parsedBody(ctx: AppContext): unknown {
  const req = ctx.request as { body?: unknown; rawBody?: unknown };
  return typeof req.rawBody === 'string' && req.rawBody !== '' ? req.body : null;
}

/** `POST /open/echo` (signed): the parsed JSON body and the app key that signed it. Both apps. */
export function signedEchoRoutes(deps: ExampleDeps): RouteDef[] {
  return [
    {
      method: 'post',
      path: '/open/echo',
      summary: 'Echoes a signed JSON body and the app key that signed it',
      tags: ['examples'],
      guards: [requireSignature(deps.verifySignature)],
      handler: async (ctx) => ({ appKey: ctx.state.signedBy ?? null, body: parsedBody(ctx) }),
    },
  ];
}
