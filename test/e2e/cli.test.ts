/**
 * The CLI as a user runs it: a child process (node + tsx), its stdout, stderr and exit status, and
 * what it prints used against the real apps (signed request with curl, encrypted login, generated key).
 */
import bcrypt from 'bcryptjs';
import Redis from 'ioredis';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import 'reflect-metadata';
import { createVerifier, httpbis } from 'http-message-signatures';
import request from 'supertest';
import { readDirectoryFile } from '../../src/adapters/directory/in-memory-user-directory';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { IssueTokens } from '../../src/application/auth/issue-tokens';
import { RefreshTokenRegistry } from '../../src/application/session/refresh-token-registry';
import { SessionManagers } from '../../src/application/session/session-manager';
import { buildAdminApp } from '../../src/main/admin';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { REDIS_URL, deleteByPrefix, requireRedis, testKeyPrefix } from '../support/services';

const root = path.join(__dirname, '../..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI exactly as `npm run cli` does (tsx), without blocking this process's event loop. */
function cli(args: readonly string[], opts: { input?: string; env?: Record<string, string> } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', 'src/main/cli.ts', ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', APP_PROFILE: 'test', ...opts.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}

const tmp = (label: string) => mkdtempSync(path.join(tmpdir(), `authguard-cli-${label}-`));

function run(cmd: string, args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('CLI (child process)', function () {
  this.timeout(60000);

  describe('usage and exit codes', () => {
    it('no command: the usage on stderr, exit 2; help: the usage on stdout, exit 0', async () => {
      const none = await cli([]);
      assert.equal(none.code, 2);
      assert.match(none.stderr, /^usage: authguard <command>/);
      assert.equal(none.stdout, '');
      const help = await cli(['help']);
      assert.equal(help.code, 0);
      for (const c of ['keys generate', 'password hash', 'password encrypt', 'sign', 'users add', 'sessions list', 'sessions kickout'])
        assert.ok(help.stdout.includes(c), `usage lists ${c}`);
    });

    const bad: Array<[string, string[], RegExp]> = [
      ['an unknown command', ['bogus'], /unknown command "bogus"/],
      ['an unknown option', ['sign', '--app-key', 'a', '--secret', 's', '--body', '', '--bogus'], /--bogus/],
      ['a missing required option', ['keys', 'generate'], /--out is required/],
      ['a bad key size', ['keys', 'generate', '--out', '/tmp/never', '--bits', '1024'], /--bits must be 2048 or 3072/],
      ['a bad padding', ['password', 'encrypt', '--public-key', 'x', '--padding', 'none'], /--padding must be oaep-sha256 or pkcs1/],
      ['a bad login type', ['sessions', 'list', 'root', '1'], /login type must be admin or web/],
      ['a malformed nonce', ['sign', '--app-key', 'a', '--secret', 's', '--body', '', '--nonce', 'short'], /--nonce must be/],
      ['both body options', ['sign', '--app-key', 'a', '--secret', 's', '--body', '', '--body-file', 'x'], /exactly one of --body/],
      ['an unknown scheme', ['sign', '--scheme', 'v2', '--app-key', 'a', '--secret', 's', '--body', ''], /--scheme must be v1 or rfc9421/],
      [
        'rfc9421 without --url',
        ['sign', '--scheme', 'rfc9421', '--method', 'GET', '--app-key', 'a', '--secret', 's', '--body', ''],
        /--url is required/,
      ],
      [
        'rfc9421 with a relative --url',
        ['sign', '--scheme', 'rfc9421', '--method', 'GET', '--url', '/open/echo', '--app-key', 'a', '--secret', 's', '--body', ''],
        /--url must be the absolute URL/,
      ],
      [
        'v1 with --url',
        ['sign', '--app-key', 'a', '--secret', 's', '--body', '', '--url', 'http://x/'],
        /--method and --url belong to --scheme rfc9421/,
      ],
      ['a bad cost', ['password', 'hash', '--cost', '4'], /--cost must be an integer from 10 to 15/],
    ];
    for (const [what, args, message] of bad) {
      it(`${what}: one line on stderr, exit 2`, async () => {
        const r = await cli(args);
        assert.equal(r.code, 2, r.stderr);
        assert.equal(r.stdout, '');
        assert.equal(r.stderr.trimEnd().split('\n').length, 1, `one line: ${r.stderr}`);
        assert.match(r.stderr, /^authguard: /);
        assert.match(r.stderr, message);
      });
    }
  });

  describe('sign: the printed headers pass the signing check (curl against a running web app)', () => {
    const APP = 'cli-partner';
    const SECRET = 'cli-partner-secret-0123456789abcdef';
    let infra: TestInfra;
    let server: http.Server;
    let base: string;

    before(async () => {
      const config = testConfig({ 'svc.security.sign.apps': { [APP]: SECRET }, 'svc.security.sign.schemes': { [APP]: 'v1,rfc9421' } });
      infra = testInfra(config, { label: 'cli-sign' });
      server = http.createServer(buildBoth(config, infra).web.app.callback());
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
      await new Promise((r) => server?.close(r));
      await infra?.dispose();
    });

    const headersOf = (stdout: string): string[] => stdout.trimEnd().split('\n');

    it('prints exactly X-App-Key, X-Timestamp, X-Nonce, X-Sign and curl gets 200; the same headers with another body get 401', async () => {
      const body = '{"amount":100,"note":"café"}';
      const r = await cli(['sign', '--app-key', APP, '--secret', SECRET, '--body', body]);
      assert.equal(r.code, 0, r.stderr);
      const lines = headersOf(r.stdout);
      assert.deepEqual(
        lines.map((l) => l.split(': ')[0]),
        ['X-App-Key', 'X-Timestamp', 'X-Nonce', 'X-Sign'],
      );
      assert.match(lines[3] ?? '', /^X-Sign: [0-9a-f]{64}$/);
      const curlArgs = (data: string) => [
        '-s',
        '-o',
        '-',
        '-w',
        '\n%{http_code}',
        `${base}/open/echo`,
        '-H',
        'Content-Type: application/json',
        ...lines.flatMap((l) => ['-H', l]),
        '--data-binary',
        data,
      ];
      const tampered = await run('curl', curlArgs('{"amount":999,"note":"café"}'));
      assert.equal(tampered.stdout.split('\n').pop(), '401');
      const ok = await run('curl', curlArgs(body));
      const [json, status] = ok.stdout.split('\n');
      assert.equal(status, '200', ok.stdout);
      assert.equal(JSON.parse(json ?? '{}').appKey, APP);
    });

    it(
      '--scheme rfc9421 prints Content-Digest, Signature-Input and Signature that ' + 'http-message-signatures and the server verify',
      async () => {
        const body = '{"amount":100,"note":"café"}';
        const url = `${base}/open/echo?ref=7`;
        const r = await cli([
          'sign',
          '--scheme',
          'rfc9421',
          '--method',
          'post',
          '--url',
          url,
          '--app-key',
          APP,
          '--secret',
          SECRET,
          '--body',
          body,
        ]);
        assert.equal(r.code, 0, r.stderr);
        const lines = headersOf(r.stdout);
        assert.deepEqual(
          lines.map((l) => l.split(': ')[0]),
          ['Content-Digest', 'Signature-Input', 'Signature'],
        );
        const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]));
        assert.equal(headers['Content-Digest'], `sha-256=:${createHash('sha256').update(body).digest('base64')}:`);
        const verified = await httpbis.verifyMessage(
          {
            keyLookup: async () => ({ id: APP, algs: ['hmac-sha256'], verify: createVerifier(SECRET, 'hmac-sha256') }),
            requiredFields: ['@method', '@target-uri', 'content-digest'],
            requiredParams: ['created', 'nonce', 'keyid'],
          },
          { method: 'POST', url, headers },
        );
        assert.equal(verified, true);
        const curlArgs = (target: string) => [
          '-s',
          '-o',
          '-',
          '-w',
          '\n%{http_code}',
          target,
          '-H',
          'Content-Type: application/json',
          ...lines.flatMap((l) => ['-H', l]),
          '--data-binary',
          body,
        ];
        const retargeted = await run('curl', curlArgs(`${base}/open/echo?ref=8`));
        assert.equal(retargeted.stdout.split('\n').pop(), '401');
        const ok = await run('curl', curlArgs(url));
        const [json, status] = ok.stdout.split('\n');
        assert.equal(status, '200', ok.stdout);
        assert.equal(JSON.parse(json ?? '{}').appKey, APP);
      },
    );

    it('--scheme rfc9421 for a GET without a body signs no Content-Digest', async () => {
      const url = `${base}/open/echo?page=2`;
      const r = await cli([
        'sign',
        '--scheme',
        'rfc9421',
        '--method',
        'GET',
        '--url',
        url,
        '--app-key',
        APP,
        '--secret',
        SECRET,
        '--body',
        '',
      ]);
      assert.equal(r.code, 0, r.stderr);
      const lines = headersOf(r.stdout);
      assert.deepEqual(
        lines.map((l) => l.split(': ')[0]),
        ['Signature-Input', 'Signature'],
      );
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]));
      const res = await request(base).get('/open/echo?page=2').set(headers).expect(200);
      assert.deepEqual(res.body, { appKey: APP, query: { page: '2' } });
    });

    it('--timestamp, --nonce and --body-file sign exactly the given values and bytes', async () => {
      const dir = tmp('sign');
      const file = path.join(dir, 'body.json');
      writeFileSync(file, '{"x":1}\n');
      const ts = String(Date.now());
      const r = await cli([
        'sign',
        '--app-key',
        APP,
        '--secret',
        SECRET,
        '--body-file',
        file,
        '--timestamp',
        ts,
        '--nonce',
        'fixed-nonce-123',
      ]);
      assert.equal(r.code, 0, r.stderr);
      const lines = headersOf(r.stdout);
      assert.equal(lines[1], `X-Timestamp: ${ts}`);
      assert.equal(lines[2], 'X-Nonce: fixed-nonce-123');
      const headers = Object.fromEntries(lines.map((l) => l.split(': ') as [string, string]));
      await request(base)
        .post('/open/echo')
        .set(headers)
        .set('Content-Type', 'application/json')
        .send(readFileSync(file, 'utf8'))
        .expect(200);
    });
  });

  describe('password encrypt: the ciphertext logs in through POST /auth/login', () => {
    for (const padding of ['oaep-sha256', 'pkcs1'] as const) {
      it(`${padding}: password from stdin, key from a file (and as PEM text)`, async () => {
        const config = testConfig({ 'svc.rsa.padding': padding, 'svc.crypto.worker-threads': 1 });
        const infra = testInfra(config, { label: 'cli-encrypt' });
        try {
          const app = buildBoth(config, infra).admin.app.callback();
          const publicKey = (await request(app).get('/auth/getConfig').expect(200)).body.data.publicKey as string;
          const file = path.join(tmp('encrypt'), 'public.pem');
          writeFileSync(file, publicKey);
          const r = await cli(['password', 'encrypt', '--public-key', file, '--padding', padding], { input: 'admin123\n' });
          assert.equal(r.code, 0, r.stderr);
          assert.equal(r.stderr, '');
          assert.match(r.stdout, /^[A-Za-z0-9+/]+={0,2}\n$/);
          const res = await request(app).post('/auth/login').send({ username: 'admin', password: r.stdout.trim() }).expect(200);
          assert.deepEqual(res.body.data.permissions, ['*:*:*']);

          const literal = await cli(['password', 'encrypt', '--public-key', publicKey, '--padding', padding, '--password', 'admin123']);
          assert.equal(literal.code, 0, literal.stderr);
          assert.match(literal.stderr, /^warning: --password leaves the password in shell history/);
          assert.ok(!literal.stdout.includes('admin123'));
          await request(app).post('/auth/login').send({ username: 'admin', password: literal.stdout.trim() }).expect(200);
          // a wrong password encrypted the same way is refused: the login really checks it
          const wrong = await cli(['password', 'encrypt', '--public-key', file, '--padding', padding], { input: 'admin124' });
          await request(app).post('/auth/login').send({ username: 'admin', password: wrong.stdout.trim() }).expect(401);
        } finally {
          await infra.dispose();
        }
      });
    }

    it('a file that is not a key: exit 2', async () => {
      const file = path.join(tmp('badkey'), 'k.pem');
      writeFileSync(file, 'not a key');
      const r = await cli(['password', 'encrypt', '--public-key', file], { input: 'x' });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /not a usable RSA key/);
    });
  });

  describe('keys generate', () => {
    it('writes a PKCS#8 private key (mode 0600) that loads as svc.rsa-private-key, and the matching SPKI public key', async () => {
      const dir = path.join(tmp('keys'), 'nested');
      const r = await cli(['keys', 'generate', '--out', dir, '--bits', '3072']);
      assert.equal(r.code, 0, r.stderr);
      const privateFile = path.join(dir, 'rsa-private.pem');
      const publicFile = path.join(dir, 'rsa-public.pem');
      assert.equal(statSync(privateFile).mode & 0o777, 0o600);
      const privatePem = readFileSync(privateFile, 'utf8');
      assert.match(privatePem, /^-----BEGIN PRIVATE KEY-----\n/);
      assert.ok(!r.stdout.includes('BEGIN PRIVATE KEY'), 'the private key is never printed');
      const config = testConfig({ 'svc.rsa-private-key': privatePem, 'svc.crypto.worker-threads': 1 });
      const infra = testInfra(config, { label: 'cli-keys' });
      try {
        const res = await request(buildAdminApp(config, infra).app.callback()).get('/auth/getConfig').expect(200);
        assert.equal(res.body.data.publicKey, readFileSync(publicFile, 'utf8'));
      } finally {
        await infra.dispose();
      }
      // never overwrites without --force
      const again = await cli(['keys', 'generate', '--out', dir]);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /exists; use --force/);
      assert.equal(readFileSync(privateFile, 'utf8'), privatePem);
      const forced = await cli(['keys', 'generate', '--out', dir, '--force']);
      assert.equal(forced.code, 0);
      assert.notEqual(readFileSync(privateFile, 'utf8'), privatePem);
    });
  });

  describe('password hash', () => {
    it('prints only a BCrypt hash of the stdin password, at the requested cost', async () => {
      const r = await cli(['password', 'hash', '--cost', '11'], { input: 'Correct horse 1\n' });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^\$2[aby]\$11\$[./A-Za-z0-9]{53}\n$/);
      assert.ok(bcrypt.compareSync('Correct horse 1', r.stdout.trim()));
      assert.ok(!bcrypt.compareSync('Correct horse 1\n', r.stdout.trim()), 'the trailing newline is not part of the password');
    });
  });

  describe('users add (to the configured YAML directory)', () => {
    it('appends a hashed user the admin app then logs in, keeps the comments, and refuses taken names and unknown roles', async () => {
      const dir = tmp('users');
      const file = path.join(dir, 'users.yml');
      copyFileSync(path.join(root, 'config/users.yml'), file);
      copyFileSync(path.join(root, 'config/menus.yml'), path.join(dir, 'menus.yml')); // its roles name these menus
      const env = { SVC_USERS_FILE: file };
      const r = await cli(['users', 'add', '--username', 'operator', '--roles', 'viewer', '--nickname', 'Ops'], {
        input: 'operator-pass-1\n',
        env,
      });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /added user "operator" \(id 3, roles viewer\)/);
      const text = readFileSync(file, 'utf8');
      assert.ok(text.includes('# Embedded admin directory'), 'comments are kept');
      assert.ok(!text.includes('operator-pass-1'), 'never the plain password');
      const added = readDirectoryFile(file).users.find((u) => u.username === 'operator');
      assert.equal(added?.nickname, 'Ops');
      assert.ok(bcrypt.compareSync('operator-pass-1', added?.password ?? ''));

      const config = testConfig({ 'svc.users-file': file, 'svc.crypto.worker-threads': 1 });
      const infra = testInfra(config, { label: 'cli-users' });
      try {
        const app = buildAdminApp(config, infra).app.callback();
        const publicKey = (await request(app).get('/auth/getConfig').expect(200)).body.data.publicKey as string;
        const enc = await cli(['password', 'encrypt', '--public-key', publicKey], { input: 'operator-pass-1' });
        const res = await request(app).post('/auth/login').send({ username: 'operator', password: enc.stdout.trim() }).expect(200);
        assert.deepEqual(res.body.data.permissions, ['system:user:list', 'monitor:online:list']);
      } finally {
        await infra.dispose();
      }

      const taken = await cli(['users', 'add', '--username', 'operator', '--roles', 'viewer'], { input: 'another-pass-1', env });
      assert.equal(taken.code, 1);
      assert.match(taken.stderr, /already taken/);
      const otherCase = await cli(['users', 'add', '--username', 'OPERATOR', '--roles', 'viewer'], { input: 'another-pass-1', env });
      assert.equal(otherCase.code, 1, 'one account per name, whatever its case');
      assert.match(otherCase.stderr, /already taken/);
      const role = await cli(['users', 'add', '--username', 'someone', '--roles', 'root'], { input: 'another-pass-1', env });
      assert.equal(role.code, 2);
      assert.match(role.stderr, /unknown role/);
      const short = await cli(['users', 'add', '--username', 'someone', '--roles', 'viewer'], { input: 'short', env });
      assert.equal(short.code, 2);
      assert.match(short.stderr, /password must be at least 8 characters/);
      const common = await cli(['users', 'add', '--username', 'someone', '--roles', 'viewer'], { input: 'iloveyou', env });
      assert.equal(common.code, 2);
      assert.match(common.stderr, /password must not be a common or breached password/);
      assert.equal(readDirectoryFile(file).users.length, 3);
    });

    it('without a configured directory: exit 1 naming svc.users-file', async () => {
      const r = await cli(['users', 'add', '--username', 'someone', '--roles', 'viewer'], {
        input: 'another-pass-1',
        env: { SVC_USERS_FILE: '' },
      });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /svc\.users-file/);
    });
  });

  describe('sessions list / kickout against the configured Redis store', () => {
    let infra: Infrastructure;
    let prefix: string;
    let env: Record<string, string>;

    before(async function () {
      await requireRedis(this);
      prefix = testKeyPrefix('cli-sessions');
      const config = testConfig({}, 'redis');
      infra = createInfrastructure(config, { log: silentLogger, keyPrefix: prefix });
      env = { SVC_STORE: 'redis', SVC_REDIS_URL: REDIS_URL, SVC_REDIS_KEY_PREFIX: prefix };
    });
    after(async () => {
      await infra?.close();
      if (prefix) {
        const c = new Redis(REDIS_URL);
        await deleteByPrefix(c, prefix);
        c.disconnect();
      }
    });

    it("lists a user's sessions, kicks one out by token id, then the rest by user id", async () => {
      const config = testConfig({}, 'redis');
      const admin = buildAdminApp(config, infra);
      const manager = admin.container.get(SessionManagers).get('admin');
      const principal = { userId: '77', username: 'cli-user', roles: [], permissions: [] };
      const a = await manager.login(principal, { ip: '203.0.113.5', userAgent: 'cli-test' });
      const b = await manager.login(principal, { ip: '203.0.113.6', userAgent: 'cli-test' });

      const list = await cli(['sessions', 'list', 'admin', '77', '--json'], { env });
      assert.equal(list.code, 0, list.stderr);
      const sessions = JSON.parse(list.stdout) as Array<{ tokenId: string; ipaddr: string }>;
      assert.deepEqual(sessions.map((s) => s.ipaddr).sort(), ['203.0.113.5', '203.0.113.6']);
      assert.ok(!list.stdout.includes(a.token) && !list.stdout.includes(b.token), 'tokens are never printed');
      const table = await cli(['sessions', 'list', 'admin', '77'], { env });
      assert.equal(table.stdout.trimEnd().split('\n').length, 3);
      const paged = await cli(['sessions', 'list', 'admin', '77', '--page', '2', '--size', '1', '--json'], { env });
      assert.equal(paged.code, 0, paged.stderr);
      assert.deepEqual(JSON.parse(paged.stdout), sessions.slice(1));
      assert.match(paged.stderr, /sessions 2-2 of 2/);
      assert.equal((await cli(['sessions', 'list', 'admin', '77', '--size', '501'], { env })).code, 2);
      const web = await cli(['sessions', 'list', 'web', '77'], { env });
      assert.equal(web.stdout, '');
      assert.match(web.stderr, /no live web sessions/);

      const first = sessions.find((s) => s.ipaddr === '203.0.113.5')?.tokenId ?? '';
      const one = await cli(['sessions', 'kickout', 'admin', first], { env });
      assert.equal(one.code, 0, one.stderr);
      assert.deepEqual(await manager.resolveToken(a.token), { ok: false, reason: 'token-kicked-out', tokenPresented: true });
      assert.equal((await manager.resolveToken(b.token)).ok, true);

      // A login with a refresh token: kicking the user out also refuses that refresh family.
      const withRefresh = await admin.container.get(IssueTokens).execute({ loginType: 'admin', principal, client: {} });
      const registry = admin.container.get(RefreshTokenRegistry);
      const resolved = await manager.resolveToken(withRefresh.accessToken);
      const family = resolved.ok ? (resolved.session.record.attrs.rtFamily ?? '') : '';
      assert.equal(await registry.isCutOff('admin', { userId: '77', family, accessHash: '' }), false);

      // --device-type: only that device type's sessions (and refresh tokens) end.
      const phone = await manager.login(principal, { ip: '203.0.113.7', userAgent: 'cli-test', deviceType: 'APP' });
      const appOnly = await cli(['sessions', 'kickout', 'admin', '77', '--device-type', 'APP'], { env });
      assert.equal(appOnly.code, 0, appOnly.stderr);
      assert.match(appOnly.stdout, /kicked out 1 APP admin session\(s\) of user 77/);
      assert.equal((await manager.resolveToken(phone.token)).ok, false);
      assert.equal((await manager.resolveToken(b.token)).ok, true, 'the other device types stay');
      assert.equal(await registry.isCutOff('admin', { userId: '77', family, accessHash: '' }), false, 'a DEF refresh family stays');
      const badType = await cli(['sessions', 'kickout', 'admin', '77', '--device-type', 'A P P'], { env });
      assert.equal(badType.code, 2, badType.stderr);
      const listed = await cli(['sessions', 'list', 'admin', '77'], { env });
      assert.match(listed.stdout, /\tDEVICE\t/);

      const all = await cli(['sessions', 'kickout', 'admin', '77'], { env });
      assert.equal(all.code, 0, all.stderr);
      assert.match(all.stdout, /kicked out 2 admin session\(s\) of user 77/);
      assert.equal((await manager.resolveToken(b.token)).ok, false);
      assert.equal(await registry.isCutOff('admin', { userId: '77', family, accessHash: '' }), true, 'earlier refresh tokens are refused');

      const none = await cli(['sessions', 'kickout', 'admin', '77'], { env });
      assert.equal(none.code, 1);
      assert.match(none.stderr, /no live admin session/);
    });

    it('with the in-memory store: exit 1, explaining that sessions need Redis', async () => {
      const r = await cli(['sessions', 'list', 'admin', '1'], { env: { SVC_STORE: 'memory' } });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /svc\.store=redis/);
    });
  });

  it('the package bin runs the same program', async () => {
    assert.ok(existsSync(path.join(root, 'bin/authguard.js')));
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
      scripts: Record<string, string>;
    };
    assert.equal(pkg.bin.authguard, 'bin/authguard.js');
    assert.equal(pkg.scripts.cli, 'tsx src/main/cli.ts');
    const r = await run(process.execPath, [
      path.join(root, 'bin/authguard.js'),
      'sign',
      '--app-key',
      'k',
      '--secret',
      's',
      '--body',
      '',
      '--timestamp',
      '1',
      '--nonce',
      'nonce-123',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.split('\n')[3], `X-Sign: ${createHmac('sha256', 's').update('k1nonce-123').digest('hex')}`);
  });
});
