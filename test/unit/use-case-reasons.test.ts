/**
 * Every use case declares the failures it may raise (`static reasons`), which the API description
 * turns into the responses of the routes that call it. Checked against the source: each reason a
 * use case's file throws literally is in that use case's list, and each reason a helper file throws
 * is in the list of some use case (the one that calls it).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import 'reflect-metadata';
import { REASONS } from '../../src/domain/errors';

const APP = path.join(__dirname, '../../src/application');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return files(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

type UseCase = { name: string; reasons?: readonly string[]; prototype: { execute?: unknown } };

function useCasesOf(file: string): UseCase[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- every module of the layer, loaded by path
  const mod = require(file) as Record<string, unknown>;
  return Object.values(mod).filter((v): v is UseCase => typeof v === 'function' && typeof (v as UseCase).prototype?.execute === 'function');
}

const thrown = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/new DomainError\(\s*'([a-z-]+)'/g)].map((m) => m[1] as string);

describe('use cases declare the reasons they raise', () => {
  const all = files(APP).map((file) => ({ file, useCases: useCasesOf(file) }));
  const declared = new Set(all.flatMap((f) => f.useCases.flatMap((u) => [...(u.reasons ?? [])])));

  it('every use case (a class with execute) has a static reasons list of catalogued reasons', () => {
    const useCases = all.flatMap((f) => f.useCases);
    assert.ok(useCases.length >= 25, `found ${useCases.length}`);
    for (const u of useCases) {
      assert.ok(Array.isArray(u.reasons), `${u.name} declares no static reasons`);
      for (const r of u.reasons ?? []) assert.ok((REASONS as readonly string[]).includes(r), `${u.name}: unknown reason ${r}`);
    }
  });

  it("each reason thrown in a use case's file is in its list; a helper's reasons in some use case's", () => {
    for (const { file, useCases } of all) {
      const rel = path.relative(APP, file);
      for (const reason of thrown(file)) {
        if (useCases.length > 0) {
          assert.ok(
            useCases.some((u) => u.reasons?.includes(reason)),
            `${rel} throws ${reason} but no use case of the file declares it`,
          );
        } else {
          assert.ok(declared.has(reason), `${rel} throws ${reason} but no use case declares it`);
        }
      }
    }
  });

  it('the reasons are read from the source (the check can fail)', () => {
    const login = all.find((f) => f.file.endsWith(path.join('auth', 'login.ts')));
    assert.deepEqual(thrown(login?.file ?? ''), ['bad-credentials']);
    assert.ok(thrown(path.join(APP, 'signing', 'v1-scheme.ts')).includes('sign-headers-missing'));
  });
});
