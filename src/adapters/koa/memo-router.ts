/**
 * @koa/router, with what it redoes on every request done once per method and path. Written against
 * 13.1.1, which package.json pins exactly: it mirrors the router's dispatch and calls its internals,
 * so test/unit/router-pin.test.ts fails (by name) when any function it mirrors or calls changes.
 *
 * - matching: the router's `match` tests every route's regular expression in turn and calls its
 *   (disabled) debug logger with fresh arguments for each, so a request allocates in proportion to
 *   the route table. Matches that found a route are remembered per method and path (bounded: the whole memo
 *   is dropped when full, and paths that match no route are never kept, so a scan of random paths
 *   cannot grow it; nor are paths over 256 characters). Each hit hands out fresh arrays, since the
 *   router stores them on the context.
 * - `middleware` (what `routes()` mounts): the router's dispatch, step for step, except that the
 *   chain it runs (a setter of the route's params, then the route's middleware, for each matched
 *   layer) is composed once per remembered match instead of rebuilt and re-composed per request;
 *   and the Host header is not parsed for a router without a `host` option (matchHost ignores it).
 */
import Router from '@koa/router';
import compose from 'koa-compose';
import type { AppState } from './state';

type Layer = Router.Layer;
type Dispatch = (ctx: RouterContext, next: () => Promise<unknown>) => Promise<unknown>;

/** The context fields the dispatch reads and writes (as @koa/router sets them). */
interface RouterContext {
  readonly method: string;
  readonly path: string;
  readonly host: string;
  newRouterPath?: string;
  routerPath?: string;
  routerName?: string | null;
  matched?: Layer[];
  router?: unknown;
  captures?: string[];
  params?: Record<string, string | undefined>;
  request: { params?: Record<string, string | undefined> };
  _matchedRoute?: string | RegExp;
  _matchedRouteName?: string;
}

interface MemoEntry {
  readonly path: Layer[];
  readonly pathAndMethod: Layer[];
  /** The composed chain of this match, made on first dispatch. */
  chain?: Dispatch;
}

const MATCH_MEMO_MAX = 1024;
/** Longer paths are matched afresh each time: the memo stays small (≤ 1024 × 256 chars) under any traffic. */
const MATCH_MEMO_MAX_PATH = 256;

export class MemoRouter extends Router<AppState> {
  private readonly memo = new Map<string, MemoEntry>();

  override middleware(): Router.Middleware<AppState> {
    const hostless = (this as unknown as { host?: unknown }).host === undefined;
    const exclusive = Boolean(this.opts.exclusive);
    const routerPath = this.opts.routerPath;
    const dispatch: Dispatch = (ctx, next) => {
      if (!hostless && !(this as unknown as { matchHost(host: string): boolean }).matchHost(ctx.host)) return next();
      const path = routerPath || ctx.newRouterPath || ctx.path || ctx.routerPath || '';
      const key = `${ctx.method} ${path}`;
      const entry = this.memo.get(key);
      const matched =
        entry !== undefined
          ? { path: entry.path.slice(), pathAndMethod: entry.pathAndMethod, route: true }
          : this.matchAfresh(path, ctx.method);
      if (ctx.matched) ctx.matched.push(...matched.path);
      else ctx.matched = matched.path;
      ctx.router = this;
      if (!matched.route) return next();
      const layers = matched.pathAndMethod;
      const mostSpecific = layers[layers.length - 1] as Layer;
      ctx._matchedRoute = mostSpecific.path;
      if (mostSpecific.name) ctx._matchedRouteName = mostSpecific.name;
      let chain = entry?.chain;
      if (chain === undefined) {
        chain = chainOf(exclusive ? [mostSpecific] : layers, path);
        const fresh = this.memo.get(key);
        if (fresh !== undefined) fresh.chain = chain;
      }
      return chain(ctx, next);
    };
    return Object.assign(dispatch, { router: this }) as unknown as Router.Middleware<AppState>;
  }

  private matchAfresh(path: string, method: string): Router.RoutesMatch {
    const found = super.match(path, method);
    if (found.route && path.length <= MATCH_MEMO_MAX_PATH) {
      if (this.memo.size >= MATCH_MEMO_MAX) this.memo.clear();
      this.memo.set(`${method} ${path}`, { path: found.path.slice(), pathAndMethod: found.pathAndMethod.slice() });
    }
    return found;
  }
}

/** What the router's dispatch composes for a match: per layer, a setter of its params, then its middleware. */
function chainOf(layers: readonly Layer[], path: string): Dispatch {
  const chain: Dispatch[] = [];
  for (const layer of layers) {
    chain.push((ctx, next) => {
      ctx.captures = layer.captures(path);
      ctx.request.params = layer.params(path, ctx.captures, ctx.params);
      ctx.params = ctx.request.params;
      ctx.routerPath = layer.path as string;
      ctx.routerName = layer.name;
      ctx._matchedRoute = layer.path;
      if (layer.name) ctx._matchedRouteName = layer.name;
      return next();
    });
    chain.push(...(layer.stack as unknown as Dispatch[]));
  }
  return compose(chain) as unknown as Dispatch;
}
