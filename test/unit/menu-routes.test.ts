/**
 * The SPA's routes from a menu tree (src/domain/menu-routes.ts), the tree rules (src/domain/menu.ts) and the cache of
 * `GET /auth/routes` (MenuTreeCache): its lifetime, its invalidation, one read for a burst of requests.
 */
import assert from 'node:assert/strict';
import { EmbeddedAccess } from '../../src/adapters/directory/embedded-access';
import { MenuTreeCache } from '../../src/application/menus/menu-tree-cache';
import type { Menu } from '../../src/domain/menu';
import { routeNameOf, treeProblem } from '../../src/domain/menu';
import { routesFor, type AsyncRoute } from '../../src/domain/menu-routes';
import { FakeClock } from '../support/fake-clock';

const base = {
  name: '',
  path: '',
  component: null,
  icon: '',
  orderNum: 0,
  visible: true,
  keepAlive: false,
  permission: null,
  enabled: true,
};
const dir = (id: string, parentId: string | null, extra: Partial<Menu> = {}): Menu => ({
  ...base,
  id,
  parentId,
  type: 'M',
  title: `dir ${id}`,
  path: `/d${id}`,
  ...extra,
});
const page = (id: string, parentId: string | null, extra: Partial<Menu> = {}): Menu => ({
  ...base,
  id,
  parentId,
  type: 'C',
  title: `page ${id}`,
  path: `/p${id}`,
  component: `p${id}/index`,
  ...extra,
});
const button = (id: string, parentId: string, permission: string, extra: Partial<Menu> = {}): Menu => ({
  ...base,
  id,
  parentId,
  type: 'F',
  title: `button ${id}`,
  permission,
  ...extra,
});

const paths = (routes: readonly AsyncRoute[]): string[] => routes.flatMap((r) => [r.path, ...paths(r.children).map((p) => ` ${p}`)]);

describe('the SPA routes of a menu tree', () => {
  const tree: Menu[] = [
    dir('1', null, { orderNum: 2 }),
    page('10', '1', { permission: 'a:list', orderNum: 2 }),
    button('100', '10', 'a:add'),
    button('101', '10', 'a:edit,a:save'),
    button('102', '10', 'a:remove', { enabled: false }),
    page('11', '1', { permission: 'b:list', orderNum: 1, visible: false, keepAlive: true }),
    dir('2', null, { orderNum: 1 }),
    page('20', '2', { permission: 'c:list' }),
    page('3', null, { orderNum: 3 }),
    dir('4', null, { orderNum: 4, enabled: false }),
    page('40', '4'),
    dir('5', null, { orderNum: 5 }),
    dir('50', '5'),
  ];

  it('orders siblings by order number; a directory redirects to its first child', () => {
    const routes = routesFor(tree, ['*:*:*']);
    assert.deepEqual(paths(routes), ['/d2', ' /p20', '/d1', ' /p11', ' /p10', '/p3']);
    assert.equal(routes[1]?.redirect, '/p11');
    assert.equal(routes[1]?.children[0]?.meta.showLink, false, 'a hidden page is routed, not shown');
    assert.equal(routes[1]?.children[0]?.meta.keepAlive, true);
  });

  it('leaves out what the caller may not open, disabled menus with what is below them, and empty directories', () => {
    assert.deepEqual(paths(routesFor(tree, ['a:list'])), ['/d1', ' /p10', '/p3']);
    assert.deepEqual(paths(routesFor(tree, [])), ['/p3'], 'a page without permission is open to every logged-in user');
    assert.deepEqual(paths(routesFor(tree, ['c:*'])), ['/d2', ' /p20', '/p3'], 'patterns count');
  });

  it("auths: the enabled buttons' permissions the caller holds, comma lists split", () => {
    const auths = (held: string[]) => routesFor(tree, held)[0]?.children.find((r) => r.path === '/p10')?.meta.auths;
    assert.deepEqual(routesFor(tree, ['*:*:*'])[1]?.children.find((r) => r.path === '/p10')?.meta.auths, ['a:add', 'a:edit', 'a:save']);
    assert.deepEqual(auths(['a:list', 'a:edit', 'a:remove']), ['a:edit']);
  });

  it('names a route after its path when the menu names none', () => {
    assert.equal(routeNameOf({ id: '7', name: '', path: '/system/login-logs' }), 'SystemLoginLogs');
    assert.equal(routeNameOf({ id: '7', name: 'Mine', path: '/x' }), 'Mine');
    assert.equal(routeNameOf({ id: '7', name: '', path: '' }), 'Menu7');
  });

  it('a stored cycle ends the walk instead of looping', () => {
    const loop = [dir('1', '2'), dir('2', '1'), page('3', null)];
    assert.deepEqual(paths(routesFor(loop, ['*:*:*'])), ['/p3']);
  });

  it('tree rules: a parent must exist and not be a button; no cycle; a button has no children', () => {
    assert.equal(treeProblem(tree, null, { parentId: '10', type: 'F' }), null);
    assert.match(treeProblem(tree, null, { parentId: '9', type: 'C' }) ?? '', /no menu/);
    assert.match(treeProblem(tree, null, { parentId: '100', type: 'F' }) ?? '', /button/);
    assert.match(treeProblem(tree, '1', { parentId: '10', type: 'M' }) ?? '', /cycle/);
    assert.match(treeProblem(tree, '1', { parentId: '1', type: 'M' }) ?? '', /cycle/);
    assert.match(treeProblem(tree, '10', { parentId: '1', type: 'F' }) ?? '', /has children/);
    assert.equal(treeProblem(tree, '10', { parentId: '2', type: 'C' }), null);
  });
});

describe('MenuTreeCache', () => {
  const setup = (cacheSeconds = 5) => {
    const access = new EmbeddedAccess({}, [dir('1', null), page('10', '1', { permission: 'a:list' })]);
    let reads = 0;
    const counting = Object.assign(Object.create(access) as EmbeddedAccess, {
      menus: () => {
        reads++;
        return access.menus();
      },
    });
    const clock = new FakeClock();
    return { access, clock, reads: () => reads, cache: new MenuTreeCache(counting, clock, { cacheSeconds }) };
  };

  it('reads the tree once for a burst, and once per permission set it serialises', async () => {
    const { cache, reads } = setup();
    const answers = await Promise.all([cache.routesFor(['a:list']), cache.routesFor(['a:list']), cache.routesFor([])]);
    assert.equal(reads(), 1);
    assert.equal(answers[0], answers[1], 'one answer per permission set');
    assert.deepEqual(JSON.parse(answers[0].body.toString()), { code: 0, message: 'ok', data: answers[0].routes });
    assert.notEqual(answers[0].etag, answers[2].etag);
  });

  it('reads it again once older than svc.menus.cache-seconds, and at once after invalidate', async () => {
    const { cache, reads, clock, access } = setup(5);
    const before = await cache.routesFor(['a:list']);
    clock.advance(4999);
    await cache.routesFor(['a:list']);
    assert.equal(reads(), 1);
    clock.advance(1);
    await access.updateMenu('10', { ...page('10', '1', { permission: 'a:list' }), title: 'renamed' });
    const after = await cache.routesFor(['a:list']);
    assert.equal(reads(), 2);
    assert.notEqual(after.etag, before.etag, 'the ETag follows the content');
    cache.invalidate();
    await cache.routesFor(['a:list']);
    assert.equal(reads(), 3);
  });

  it('0 seconds: read for every request', async () => {
    const { cache, reads } = setup(0);
    await cache.routesFor([]);
    await cache.routesFor([]);
    assert.equal(reads(), 2);
  });
});
