import assert from 'node:assert/strict';
import fc from 'fast-check';
import { hasPermissions, hasRoles, permissionMatches, permissionsNotCovered } from '../../src/domain/permission';

describe('permission matcher', () => {
  const table: Array<[granted: string, required: string, expected: boolean]> = [
    ['system:user:add', 'system:user:add', true],
    ['system:user:add', 'system:user:list', false],
    ['*', 'system:user:add', true],
    ['*:*:*', 'system:user:add', true],
    ['*:*:*', 'a', true],
    ['system:*', 'system:user:add', true],
    ['system:*', 'system:user', true],
    ['system:*', 'system', false],
    ['system:*', 'monitor:user:add', false],
    ['system:*:list', 'system:user:list', true],
    ['system:*:list', 'system:user:dept:list', false],
    ['system:*:list', 'system:user:add', false],
    ['system:user:*', 'system:user', false],
    ['system:user:*', 'system:user:add', true],
    ['system:user:*', 'system:user:dept:add', true],
    ['*:user:add', 'system:user:add', true],
    ['*:user:add', 'system:role:add', false],
    ['system:user', 'system:user:add', false],
    ['system:user:add', 'system:user', false],
    ['', 'system', false],
    ['system', '', false],
    ['System:user:add', 'system:user:add', false],
  ];
  for (const [granted, required, expected] of table) {
    it(`${JSON.stringify(granted)} ${expected ? 'grants' : 'does not grant'} ${JSON.stringify(required)}`, () => {
      assert.equal(permissionMatches(granted, required), expected);
    });
  }

  const segment = fc.stringMatching(/^[a-z]{1,6}$/);
  const perm = fc.array(segment, { minLength: 1, maxLength: 5 }).map((s) => s.join(':'));

  it('property: every permission grants itself, and the all-pattern grants everything', () => {
    fc.assert(
      fc.property(perm, (p) => {
        assert.ok(permissionMatches(p, p));
        assert.ok(permissionMatches('*:*:*', p));
        assert.ok(permissionMatches('*', p));
      }),
    );
  });

  it('property: a trailing * after a prefix grants exactly the longer permissions under that prefix', () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 3 }), fc.array(segment, { minLength: 0, maxLength: 3 }), (prefix, rest) => {
        const pattern = [...prefix, '*'].join(':');
        const required = [...prefix, ...rest].join(':');
        assert.equal(permissionMatches(pattern, required), rest.length >= 1);
      }),
    );
  });

  it('property: a * in the middle matches exactly one segment', () => {
    fc.assert(
      fc.property(segment, fc.array(segment, { minLength: 1, maxLength: 3 }), segment, (head, middle, tail) => {
        const pattern = `${head}:*:${tail}`;
        assert.equal(permissionMatches(pattern, [head, ...middle, tail].join(':')), middle.length === 1);
      }),
    );
  });

  it('property: without wildcards, matching is plain equality', () => {
    fc.assert(fc.property(perm, perm, (a, b) => assert.equal(permissionMatches(a, b), a === b)));
  });

  it('AND / OR modes for permissions and roles', () => {
    const granted = ['system:user:list', 'monitor:*'];
    assert.ok(hasPermissions(granted, ['system:user:list', 'monitor:online:list'], 'AND'));
    assert.ok(!hasPermissions(granted, ['system:user:list', 'system:user:add'], 'AND'));
    assert.ok(hasPermissions(granted, ['system:user:add', 'monitor:online:list'], 'OR'));
    assert.ok(!hasPermissions(granted, ['system:user:add', 'system:role:add'], 'OR'));
    assert.ok(hasPermissions(granted, [], 'AND'));
    assert.ok(hasRoles(['admin', 'viewer'], ['admin', 'viewer'], 'AND'));
    assert.ok(!hasRoles(['viewer'], ['admin', 'viewer'], 'AND'));
    assert.ok(hasRoles(['viewer'], ['admin', 'viewer'], 'OR'));
  });

  it('permissionsNotCovered: a held pattern covers an equal or narrower one, never a wider one', () => {
    assert.deepEqual(permissionsNotCovered(['*:*:*'], ['*:*:*', 'system:*', 'a:b:c:d']), []);
    assert.deepEqual(permissionsNotCovered(['system:*'], ['system:user:add', 'system:user:*', 'system:*']), []);
    assert.deepEqual(permissionsNotCovered(['system:user:*'], ['system:*', 'system:user:add', '*:*:*']), ['system:*', '*:*:*']);
    assert.deepEqual(permissionsNotCovered(['system:*:list'], ['system:user:list', 'system:*:list', 'system:user:*']), ['system:user:*']);
    assert.deepEqual(permissionsNotCovered(['system:user:list'], ['system:*:list']), ['system:*:list']);
    assert.deepEqual(permissionsNotCovered([], ['', ' ', 'a:b', 'a:b']), ['a:b']);
  });
});
