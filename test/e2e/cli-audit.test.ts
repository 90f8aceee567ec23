import 'reflect-metadata';
/**
 * `npm run cli -- audit verify` against the audit log a running app wrote to Redis: an intact
 * chain passes; an event edited in the store (its hash kept, as someone with write access to
 * Redis would leave it) is found and named, exit 1.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import Redis from 'ioredis';
import { QueuedAuditTrail } from '../../src/application/audit/queued-audit-trail';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { buildAdminApp } from '../../src/main/admin';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import { testConfig } from '../support/apps';
import { adminLogin } from '../support/flows';
import { REDIS_URL, deleteByPrefix, requireRedis, testKeyPrefix } from '../support/services';

function cli(args: readonly string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', 'src/main/cli.ts', ...args], {
      cwd: path.join(__dirname, '../..'),
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', APP_PROFILE: 'test', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end('');
  });
}

describe('npm run cli -- audit verify (Redis)', function () {
  this.timeout(60_000);
  let infra: Infrastructure;
  let prefix: string;
  let env: Record<string, string>;
  let stream: string;

  before(async function () {
    await requireRedis(this);
    prefix = testKeyPrefix('cli-audit');
    const config = testConfig({ 'svc.trusted-proxies': '127.0.0.1,::1', 'svc.crypto.worker-threads': 1 }, 'redis');
    infra = createInfrastructure(config, { log: silentLogger, keyPrefix: prefix });
    env = { SVC_STORE: 'redis', SVC_REDIS_URL: REDIS_URL, SVC_REDIS_KEY_PREFIX: prefix };
    stream = `${prefix}ev:admin:login`;
    const admin = buildAdminApp(config, infra);
    const login = adminLogin(admin.app);
    for (const ip of ['10.4.0.1', '10.4.0.2', '10.4.0.3']) assert.equal((await login('admin', 'admin123', ip)).status, 200);
    await admin.container.get(QueuedAuditTrail).flush();
  });
  after(async () => {
    await infra?.close();
    const c = new Redis(REDIS_URL);
    await deleteByPrefix(c, prefix);
    c.disconnect();
  });

  it('an intact log passes; an edited event is found and named', async () => {
    const ok = await cli(['audit', 'verify', 'admin'], env);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /the admin login log: 3 events, chain intact from the start of the log to \d+-\d+/);

    // Someone with write access to Redis rewrites the stream with the second login's IP changed (hashes kept).
    const c = new Redis(REDIS_URL);
    try {
      const entries = (await c.xrange(stream, '-', '+')) as Array<[string, string[]]>;
      assert.equal(entries.length, 3);
      const [id, fields] = entries[1] as [string, string[]];
      const edited = fields.map((v) => v.replace('"10.4.0.2"', '"10.9.9.9"'));
      await c.del(stream);
      for (const [eid, f] of entries) await c.xadd(stream, eid, ...(eid === id ? edited : f));
      const broken = await cli(['audit', 'verify', 'admin', '--log', 'login'], env);
      assert.equal(broken.code, 1);
      const eventId = (JSON.parse(edited[edited.indexOf('e') + 1] as string) as { i: string }).i;
      assert.match(broken.stderr, new RegExp(`chain broken at ${id} \\(event ${eventId}\\)`));

      // From the event after the edited one on, the chain holds (that event is the anchor).
      const after = await cli(['audit', 'verify', 'admin', '--from', String(Number(id.split('-')[0]) + 1)], env);
      assert.equal(after.code, 0, after.stderr);
      assert.match(after.stdout, /1 events, chain intact from .* \(the anchor: taken as given\)/);
      assert.equal((await cli(['audit', 'verify', 'web'], env)).stdout.trim(), 'the web login log: no event in the range');
      assert.equal((await cli(['audit', 'verify', 'admin', '--log', 'nope'], env)).code, 2);
    } finally {
      c.disconnect();
    }
  });
});
