/**
 * Compiling the bench servers, for this tree and (A/B runs) for another commit's tree, and
 * starting one (startServer); the median the runners report.
 *
 * The servers run as compiled JavaScript, as in production (`npm start` runs `dist/`): under tsx
 * the same code is ~20 % slower (esbuild's keepNames wraps every closure it creates in __name()).
 * tsc writes into <root>/bench/.build (gitignored); the crypto worker is copied beside its pool and
 * the Redis stores' Lua scripts beside the stores.
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function compileServers(root: string): void {
  const tsc = require.resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'bench/tsconfig.json')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`bench: compiling the servers of ${root} failed`);
  const worker = 'src/adapters/crypto/crypto-worker.js';
  fs.copyFileSync(path.join(root, worker), path.join(root, 'bench/.build', worker));
  const scripts = 'src/adapters/redis/scripts';
  if (fs.existsSync(path.join(root, scripts)))
    fs.cpSync(path.join(root, scripts), path.join(root, 'bench/.build', scripts), { recursive: true });
}

export function compiledScript(root: string, script: string): string {
  return path.join(root, 'bench/.build', script.replace(/\.ts$/, '.js'));
}

/** What a bench server reports over IPC once it listens. */
export interface Ready {
  port: number;
  token?: string;
  cookie?: string;
}

/**
 * Starts a compiled bench server (`script` under bench/, as named in the scenario table) of the
 * tree at `root`, in production mode, and resolves once it reports that it listens.
 */
export function startServer(o: {
  readonly root: string;
  readonly script: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly execArgv?: readonly string[];
  /** How errors name it (default: the script). */
  readonly name?: string;
}): Promise<{ child: ChildProcess; ready: Ready }> {
  const name = o.name ?? o.script;
  return new Promise((resolve, reject) => {
    const child = fork(compiledScript(o.root, o.script), [...(o.args ?? [])], {
      cwd: o.root,
      execArgv: [...(o.execArgv ?? [])],
      env: { ...process.env, ...o.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const timer = setTimeout(() => reject(new Error(`${name} did not start`)), 30_000);
    child.once('message', (m) => {
      clearTimeout(timer);
      resolve({ child, ready: m as Ready });
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

function git(root: string, args: string[]): string {
  const r = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

/**
 * The tree of `ref` (a commit of this repository), extracted into the temporary directory with
 * this tree's node_modules linked in, and its servers compiled: the "A" side of an A/B run.
 * Kept between runs (keyed by commit), so a second run with the same ref starts at once.
 */
export function buildRef(root: string, ref: string): string {
  const sha = git(root, ['rev-parse', '--verify', `${ref}^{commit}`]);
  const dir = path.join(os.tmpdir(), 'authguard-bench-ab', sha.slice(0, 12));
  const done = path.join(dir, '.compiled');
  if (fs.existsSync(done)) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const archive = spawnSync('sh', ['-c', `git archive ${sha} | tar -x -C '${dir}'`], { cwd: root, stdio: 'inherit' });
  if (archive.status !== 0) throw new Error(`bench: extracting ${ref} failed`);
  fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules')), path.join(dir, 'node_modules'));
  compileServers(dir);
  fs.writeFileSync(done, sha);
  return dir;
}
