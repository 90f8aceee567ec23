/**
 * The import graph of src/ has no cycle, type-only imports included (`import type` still couples
 * two modules: a reader has to hold both in mind, and a later value import turns it into a
 * load-order bug). Imports are read with TypeScript's own pre-processor, so every form counts:
 * `import`, `import type`, `export ... from` and `require`.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SRC = path.join(__dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

/** The src/ files a module imports (relative specifiers only: packages cannot close a cycle in src/). */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const out: string[] = [];
  for (const ref of info.importedFiles) {
    if (!ref.fileName.startsWith('.')) continue;
    const base = path.resolve(path.dirname(file), ref.fileName);
    const target = [`${base}.ts`, path.join(base, 'index.ts'), base].find((f) => existsSync(f) && statSync(f).isFile());
    if (target !== undefined && target.endsWith('.ts')) out.push(target);
  }
  return out;
}

/** Every cycle's member list (strongly connected components of more than one module, or a self-import). */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, indices.get(w) as number));
    }
    if (low.get(v) === indices.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(scc);
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) visit(v);
  return cycles;
}

describe('import graph of src/', () => {
  it('has no cycle, type-only imports included', () => {
    const graph = new Map(sourceFiles(SRC).map((f) => [f, importsOf(f)] as const));
    assert.ok(graph.size > 50, 'the walk found the sources');
    const cycles = findCycles(graph).map((c) => c.map((f) => path.relative(SRC, f)).sort());
    assert.deepEqual(cycles, []);
  });

  it('the check finds a cycle, including one closed by a type-only import', () => {
    const g = new Map<string, string[]>([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    assert.deepEqual(
      findCycles(g).map((c) => c.sort()),
      [['a', 'b', 'c']],
    );
    const file = path.join(SRC, 'application/tokens.ts');
    assert.ok(
      importsOf(file).some((f) => f.endsWith(path.join('ports', 'clock.ts'))),
      '`import type` counts as an edge',
    );
  });
});
