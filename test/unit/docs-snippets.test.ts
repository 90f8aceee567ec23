/**
 * The signing snippets of docs/integration-third-party.md, run for real against a listening web
 * app: the documentation cannot drift from what the server accepts.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';

const doc = readFileSync(path.join(__dirname, '../../docs/integration-third-party.md'), 'utf8');

/** The fenced block right after `<!-- snippet: name -->`. */
function snippet(name: string): string {
  const m = new RegExp(`<!-- snippet: ${name} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\``).exec(doc);
  if (!m?.[1]) throw new Error(`docs/integration-third-party.md has no snippet "${name}"`);
  return m[1];
}

function run(cmd: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}

describe('docs/integration-third-party.md: the signing snippets pass the signature check', function () {
  this.timeout(30000);
  let infra: TestInfra;
  let server: http.Server;
  let env: Record<string, string>;

  before(async () => {
    const config = testConfig({
      'svc.security.sign.apps': { 'demo-app': 'dev-only-demo-secret-not-for-production', 'v1-app': 'v1-only-secret-0123456789' },
      'svc.security.sign.schemes': { 'demo-app': 'v1,rfc9421', 'v1-app': 'v1' },
    });
    infra = testInfra(config, { label: 'docs-snippets' });
    server = http.createServer(buildBoth(config, infra).web.app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    env = { BASE: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  });
  after(async () => {
    await new Promise((r) => server?.close(r));
    await infra?.dispose();
  });

  const expectEcho = (r: { code: number | null; stdout: string; stderr: string }) => {
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { appKey: 'demo-app', body: { orderId: 'A-1001', amount: 2500, note: 'café' } });
  };

  it('curl + openssl (bash)', async () => {
    expectEcho(await run('bash', ['-euo', 'pipefail', '-c', snippet('curl-openssl')], env));
  });

  it('curl + openssl with a wrong secret is refused (the check is real)', async () => {
    const r = await run('bash', ['-euo', 'pipefail', '-c', snippet('curl-openssl')], { ...env, APP_SECRET: 'not-the-secret-0123456789' });
    assert.equal(JSON.parse(r.stdout).code, 'sign-invalid');
  });

  it('Node.js', async () => {
    expectEcho(await run(process.execPath, ['-e', snippet('node')], env));
  });

  it('RFC 9421: curl + openssl (bash)', async () => {
    expectEcho(await run('bash', ['-euo', 'pipefail', '-c', snippet('rfc9421-curl-openssl')], env));
  });

  it('RFC 9421: curl + openssl with a wrong secret, or for an app configured v1, is refused (the check is real)', async () => {
    const wrong = await run('bash', ['-euo', 'pipefail', '-c', snippet('rfc9421-curl-openssl')], {
      ...env,
      APP_SECRET: 'not-the-secret-0123456789',
    });
    assert.equal(JSON.parse(wrong.stdout).code, 'sign-invalid');
    const v1Only = await run('bash', ['-euo', 'pipefail', '-c', snippet('rfc9421-curl-openssl')], {
      ...env,
      APP_KEY: 'v1-app',
      APP_SECRET: 'v1-only-secret-0123456789',
    });
    assert.equal(JSON.parse(v1Only.stdout).code, 'sign-invalid');
  });

  it('RFC 9421: Node.js without a library', async () => {
    expectEcho(await run(process.execPath, ['-e', snippet('rfc9421-node')], env));
  });

  it('RFC 9421: Node.js with http-message-signatures', async () => {
    expectEcho(await run(process.execPath, ['-e', snippet('rfc9421-node-library')], env));
  });

  it('Python 3', async function () {
    // curl + openssl and Node are required on a test machine; python3 is optional.
    if (spawnSync('python3', ['--version']).status !== 0) {
      console.warn('\n  !!! SKIPPING the Python snippet: python3 not found !!!\n');
      this.skip();
    }
    expectEcho(await run('python3', ['-c', snippet('python')], env));
  });
});
