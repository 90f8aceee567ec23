/**
 * Every variable .env.example documents, set as its comment says, must start the service: the real
 * process (`src/main/start.ts`, as `npm run dev` runs it) in the dev and in the prod profile, on
 * Redis and the SQL directory (MariaDB), answering /actuator/health on both apps and
 * /auth/getConfig with the RSA key it was given.
 *
 * The test reads .env.example itself (every `KEY=` or `# KEY=` line) and fails when a variable there
 * has no value in VALUES below: a newly documented variable is one line here.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DisposableRedis, freePort, requireRedisServer } from '../support/redis-server';
import { requireMariaDb, ScratchDatabase } from '../support/mariadb';

const root = path.join(__dirname, '../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

/** The variables .env.example shows, in its order: every `KEY=value` and `# KEY=value` line. */
export function documentedVariables(text: string): string[] {
  const names = [...text.matchAll(/^#?[ \t]*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1] as string);
  return [...new Set(names)];
}

/** What one start is given: its profile and the resources set up for it. */
interface Run {
  readonly profile: 'dev' | 'prod';
  readonly adminPort: number;
  readonly webPort: number;
  readonly redisUrl: string;
  readonly rsaPrivateKey: string;
  readonly datasource: { readonly url: string; readonly username: string; readonly password: string };
}

const secret = (bytes: number): string => randomBytes(bytes).toString('base64url');
const APP_SECRET = secret(24);

/**
 * A value for every variable .env.example shows, as its comment says (one line per variable).
 * SVC_LOGIN_DEVICE_COOKIE_PREVIOUS_SECRET is named in a comment only (the rotation hint); it is set too.
 */
const VALUES: Readonly<Record<string, (r: Run) => string>> = {
  APP_PROFILE: (r) => r.profile,
  SVC_STORE: () => 'redis',
  SVC_REDIS_URL: (r) => r.redisUrl,
  SVC_RSA_PRIVATE_KEY: (r) => r.rsaPrivateKey,
  SVC_SECURITY_SIGN_APPS: () => JSON.stringify({ partner: APP_SECRET }),
  SVC_SECURITY_SIGN_ENABLED: () => 'true',
  SVC_SECURITY_SIGN_SCHEMES: (r) => JSON.stringify({ partner: r.profile === 'prod' ? 'rfc9421' : 'v1,rfc9421' }),
  SVC_SECURITY_SIGN_PUBLIC_URLS: (r) => JSON.stringify({ web: `http://127.0.0.1:${r.webPort}`, admin: `http://127.0.0.1:${r.adminPort}` }),
  SVC_LOGIN_DEVICE_COOKIE_SECRET: () => secret(32),
  SVC_LOGIN_DEVICE_COOKIE_PREVIOUS_SECRET: () => secret(32),
  SVC_LOGIN_DEVICE_COOKIE_PATH: () => '/',
  SVC_IDEMPOTENCY_TOKEN_SECRET: () => secret(32),
  SVC_IDEMPOTENCY_TOKEN_PREVIOUS_SECRET: () => secret(32),
  SVC_MFA_ENCRYPTION_KEY: () => randomBytes(32).toString('hex'),
  SVC_MFA_PREVIOUS_ENCRYPTION_KEY: () => randomBytes(32).toString('base64'),
  SVC_WEBAUTHN_RP_ID: () => 'example.com',
  SVC_WEBAUTHN_ADMIN_ORIGINS: () => 'https://admin.example.com',
  SVC_WEBAUTHN_WEB_ORIGINS: () => 'https://www.example.com,https://example.com',
  SVC_TRUSTED_PROXIES: () => '127.0.0.1,10.0.0.0/8',
  SVC_TRUSTED_PROXIES_ALLOW_WIDE: () => 'false',
  SVC_ADMIN_PORT: (r) => String(r.adminPort),
  SVC_WEB_PORT: (r) => String(r.webPort),
  SVC_TIME_ZONE: () => 'Asia/Shanghai',
  SESSION_TIMEOUT: (r) => (r.profile === 'prod' ? '3600' : '604800'),
  SESSION_ACTIVE_TIMEOUT: (r) => (r.profile === 'prod' ? '1800' : '-1'),
  SVC_DIRECTORY: () => 'sql',
  SVC_DATASOURCE_URL: (r) => r.datasource.url,
  SVC_DATASOURCE_USERNAME: (r) => r.datasource.username,
  SVC_DATASOURCE_PASSWORD: (r) => r.datasource.password,
  // No message is sent at start: the address only has to be a well-formed one (the pool connects on the first message).
  SVC_MAIL_SMTP_URL: () => `smtp://mailer:${secret(12)}@127.0.0.1:2525`,
  SVC_MAIL_FROM: () => 'authguard <no-reply@example.com>',
};

/** A started service: its output so far, and a way to stop it. */
interface Started {
  readonly proc: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

async function get(port: number, p: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`http://127.0.0.1:${port}${p}`);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    // not JSON: kept as text
  }
  return { status: res.status, body };
}

/** Starts `src/main/start.ts` with exactly `env` (plus PATH and HOME); resolves once the admin app's health answers. */
async function start(env: Record<string, string>, adminPort: number, timeoutMs = 40_000): Promise<Started> {
  const proc = spawn(tsx, ['src/main/start.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const started: Started = {
    proc,
    output: () => out,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) assert.fail(`the service refused to start (exit ${proc.exitCode}):\n${out}`);
    const health = await get(adminPort, '/actuator/health').catch(() => null);
    if (health?.status === 200) return started;
    await new Promise((r) => setTimeout(r, 200));
  }
  await started.stop();
  return assert.fail(`the service did not answer within ${timeoutMs} ms:\n${out}`);
}

describe('.env.example: every documented variable, set as its comment says, starts the service', function () {
  this.timeout(120_000);
  const documented = documentedVariables(readFileSync(path.join(root, '.env.example'), 'utf8'));

  it('reads the variables from .env.example, and every one of them has a value in this test', () => {
    assert.ok(
      documented.includes('APP_PROFILE') && documented.includes('SVC_SECURITY_SIGN_APPS') && documented.includes('SVC_DATASOURCE_PASSWORD'),
      documented.join(', '),
    );
    const missing = documented.filter((v) => !Object.hasOwn(VALUES, v));
    assert.deepEqual(
      missing,
      [],
      `documented in .env.example but not set by test/e2e/env-example.test.ts (add one line to VALUES): ${missing.join(', ')}`,
    );
  });

  it('counts `KEY=` and `# KEY=` lines, not prose', () => {
    assert.deepEqual(documentedVariables('# A comment. SVC_X= in prose\nA=1\n# B=\n#C={"x":1}\n  # D=no\nlower=1\nA=2\n'), ['A', 'B', 'C']);
  });

  describe('the real process', () => {
    let db: ScratchDatabase;
    let redis: DisposableRedis | undefined;
    const prodDbUser = `agenv_${randomBytes(4).toString('hex')}`;
    const prodDbPassword = secret(18);

    before(async function () {
      await requireMariaDb(this);
      await requireRedisServer(this);
      db = await ScratchDatabase.create('envexample');
      // prod requires a database password; the test server's root has none, so prod logs in as a user of its own.
      for (const host of ['%', 'localhost', '127.0.0.1']) {
        await db.pool.query(`CREATE USER '${prodDbUser}'@'${host}' IDENTIFIED BY '${prodDbPassword}'`);
        await db.pool.query(`GRANT ALL PRIVILEGES ON \`${db.name}\`.* TO '${prodDbUser}'@'${host}'`);
      }
      // prod requires a Redis password: a throw-away password-protected server.
      redis = await DisposableRedis.create({ password: secret(18) });
    });
    after(async () => {
      for (const host of ['%', 'localhost', '127.0.0.1'])
        await db?.pool.query(`DROP USER IF EXISTS '${prodDbUser}'@'${host}'`).catch(() => undefined);
      await db?.drop();
      await redis?.kill();
    });

    async function runOf(profile: Run['profile']): Promise<Run> {
      const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
      return {
        profile,
        adminPort: await freePort(),
        webPort: await freePort(),
        // dev: the Redis at 127.0.0.1:6379 (no password); prod: one with a password, as prod requires.
        redisUrl: profile === 'prod' ? (redis as DisposableRedis).url : 'redis://127.0.0.1:6379/0',
        // both forms .env.example names: PKCS#1 PEM in dev, PKCS#8 PEM in prod
        rsaPrivateKey: pair.privateKey
          .export(profile === 'prod' ? { type: 'pkcs8', format: 'pem' } : { type: 'pkcs1', format: 'pem' })
          .toString(),
        datasource:
          profile === 'prod'
            ? { url: db.settings.url, username: prodDbUser, password: prodDbPassword }
            : { url: db.settings.url, username: db.settings.username, password: db.settings.password },
      };
    }

    function envOf(run: Run): Record<string, string> {
      const env: Record<string, string> = { SVC_REDIS_KEY_PREFIX: `ag-envex-${process.pid}-${run.profile}:` };
      for (const [name, value] of Object.entries(VALUES)) env[name] = value(run);
      return env;
    }

    for (const profile of ['dev', 'prod'] as const) {
      it(`${profile}: starts, and both apps answer (health UP; getConfig with the configured RSA key)`, async () => {
        const run = await runOf(profile);
        const service = await start(envOf(run), run.adminPort);
        try {
          for (const port of [run.adminPort, run.webPort]) {
            const health = await get(port, '/actuator/health');
            assert.equal(health.status, 200, service.output());
            assert.equal((health.body as { status: string }).status, 'UP', JSON.stringify(health.body));
          }
          const cfg = await get(run.adminPort, '/auth/getConfig');
          assert.equal(cfg.status, 200, JSON.stringify(cfg.body));
          const publicKey = (cfg.body as { data: { publicKey: string } }).data.publicKey;
          const expected = createPublicKey(run.rsaPrivateKey).export({ type: 'spki', format: 'pem' }).toString();
          assert.equal(publicKey.trim(), expected.trim(), 'the login page gets the key SVC_RSA_PRIVATE_KEY names');
        } finally {
          await service.stop();
        }
        // the log is buffered: read it once the process has flushed it on shutdown
        const lines = service
          .output()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as { level: number; msg: string });
        assert.ok(lines.some((l) => l.msg === 'admin app listening') && lines.some((l) => l.msg === 'web app listening'), service.output());
        assert.deepEqual(
          lines.filter((l) => l.level >= 40).map((l) => l.msg),
          [],
          'no warning or error: every documented setting is taken as it is',
        );
      });
    }

    it(
      "dev with one's own signing app only (SVC_SECURITY_SIGN_APPS, no schemes): starts, warning " +
        "that the profile's demo-app scheme is dropped",
      async () => {
        const adminPort = await freePort();
        const webPort = await freePort();
        const service = await start(
          {
            APP_PROFILE: 'dev',
            SVC_SECURITY_SIGN_APPS: JSON.stringify({ partner: APP_SECRET }),
            SVC_ADMIN_PORT: String(adminPort),
            SVC_WEB_PORT: String(webPort),
          },
          adminPort,
        );
        try {
          assert.equal((await get(webPort, '/actuator/health')).status, 200);
        } finally {
          await service.stop();
        }
        assert.match(
          service.output(),
          new RegExp(
            String.raw`svc\.security\.sign\.schemes \(SVC_SECURITY_SIGN_SCHEMES\): the entry` +
              String.raw` for app \\?"demo-app\\?" in config\/application-dev\.yml is ignored`,
          ),
        );
      },
    );
  });
});
