/**
 * 405 for a method a path does not declare, with the `Allow` header RFC 9110 §15.5.6 requires
 * (the methods the path's routes declare, plus OPTIONS, which every known path answers), in the
 * app's own error format. OPTIONS on a known path answers 200 with the same `Allow`. A method the
 * router does not know at all is refused the same way.
 */
import type Router from '@koa/router';
import { DomainError } from '../../domain/errors';
import type { AppMiddleware, AppState } from './state';

interface MatchedLayer {
  readonly methods: readonly string[];
}

export function methodNotAllowed(router: Router<AppState>): AppMiddleware {
  const known = new Set(router.methods);
  return async function methodNotAllowed(ctx, next) {
    await next();
    const matched = (ctx as unknown as { matched?: readonly MatchedLayer[] }).matched;
    if (matched === undefined || (ctx.status && ctx.status !== 404)) return;
    const declared = [...new Set(matched.flatMap((layer) => layer.methods))];
    if (declared.length === 0 && known.has(ctx.method)) return; // no route on this path: 404 stands
    // OPTIONS is answered on every known path (just below), so it is allowed there too.
    const allowed = declared.length > 0 && !declared.includes('OPTIONS') ? [...declared, 'OPTIONS'] : declared;
    if (ctx.method === 'OPTIONS' && allowed.length > 0) {
      ctx.status = 200;
      ctx.body = '';
      ctx.set('Allow', allowed.join(', '));
      return;
    }
    if (known.has(ctx.method) && declared.includes(ctx.method)) return;
    const headers = allowed.length > 0 ? { Allow: allowed.join(', ') } : undefined;
    const message = known.has(ctx.method) ? 'This method is not allowed on this path.' : 'This method is not supported.';
    throw new DomainError('method-not-allowed', message, headers ? { headers } : {});
  };
}
