/**
 * src/adapters/koa/memo-router.ts re-implements @koa/router's dispatch (`Router#middleware`) and
 * relies on its internals (`match`, `matchHost`, `opts.exclusive`, `opts.routerPath`, and each
 * layer's `captures`, `params`, `path`, `name`, `stack`). A router update that changes any of them
 * must fail here, by name, instead of changing behaviour silently: the package is pinned to an
 * exact version, and the source of every function memo-router mirrors or calls is the one it was
 * written against. After reading a new release's changes into memo-router, update the pin and the
 * fingerprints below in the same commit.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Router from '@koa/router';

const PINNED = '13.1.1';

/** sha-256 (first 16 hex) of each mirrored or called function's source, as @koa/router 13.1.1 ships it. */
const FINGERPRINTS: Readonly<Record<string, string>> = {
  'Router#middleware': 'e6df0c3a0e864342',
  'Router#match': '7fc7bf6c8a224cbf',
  'Router#matchHost': 'f5c04bb6353e1643',
  'Layer#captures': '5a42d6ce645f2cde',
  'Layer#params': 'c62b18548707e22f',
  'Layer#match': '2d603662cff636cd',
};

const fingerprint = (fn: unknown): string => createHash('sha256').update(String(fn)).digest('hex').slice(0, 16);

function sources(): Record<string, unknown> {
  const router = Router.prototype as unknown as Record<string, unknown>;
  const layer = (
    new Router().register('/x/:id', ['GET'], [async () => undefined]) as unknown as { constructor: { prototype: Record<string, unknown> } }
  ).constructor.prototype;
  return {
    'Router#middleware': router.middleware,
    'Router#match': router.match,
    'Router#matchHost': router.matchHost,
    'Layer#captures': layer.captures,
    'Layer#params': layer.params,
    'Layer#match': layer.match,
  };
}

describe('@koa/router is pinned to the dispatch memo-router mirrors', () => {
  const root = path.join(__dirname, '../..');

  it(`package.json pins @koa/router exactly (${PINNED}) and that is what is installed`, () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    assert.equal(pkg.dependencies['@koa/router'], PINNED, 'no range: memo-router depends on the router internals of one release');
    const installed = JSON.parse(readFileSync(require.resolve('@koa/router/package.json'), 'utf8')) as { version: string };
    assert.equal(installed.version, PINNED);
  });

  it('the functions memo-router mirrors or calls are unchanged (a dispatch change fails here, not in production)', () => {
    const got = Object.fromEntries(
      Object.entries(sources()).map(([name, fn]) => [name, typeof fn === 'function' ? fingerprint(fn) : 'missing']),
    );
    assert.deepEqual(got, FINGERPRINTS, 'read the release into src/adapters/koa/memo-router.ts, then update PINNED and FINGERPRINTS');
  });
});
