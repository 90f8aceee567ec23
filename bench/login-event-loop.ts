/**
 * Event-loop delay under a login storm: N concurrent admin logins (cost-10 BCrypt) against the
 * real admin app, once with BCrypt on the worker pool (what the service does) and once with
 * bcryptjs' async compare on the main thread (what it would do without the pool). Meanwhile
 * perf_hooks.monitorEventLoopDelay records how late the loop runs, and a probe loop times a cheap
 * request (GET /auth/getConfig) every 10 ms.
 *
 *   npx tsx bench/login-event-loop.ts [logins=20]
 */
import 'reflect-metadata';
import { constants, publicEncrypt } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import bcrypt from 'bcryptjs';
import request from 'supertest';
import { silentLogger } from '../src/adapters/logging/pino-logger';
import type { PasswordHasher } from '../src/application/ports/password-hasher';
import { buildAdminApp } from '../src/main/admin';
import { loadConfig } from '../src/main/config';
import { createInfrastructure } from '../src/main/infrastructure';

const N = Number(process.argv[2] ?? 20);

const mainThreadHasher: PasswordHasher = {
  hash: (pw, cost) => bcrypt.hash(pw, cost),
  verify: (pw, hash) => bcrypt.compare(pw, hash),
};

async function round(label: string, onMainThread: boolean): Promise<void> {
  const config = loadConfig({
    env: { APP_PROFILE: 'test' },
    overrides: { 'svc.trusted-proxies': '127.0.0.1,::1', 'svc.login.max-failures': 0 },
  });
  const infra = createInfrastructure(config, { log: silentLogger });
  const app = buildAdminApp(config, onMainThread ? { ...infra, hasher: mainThreadHasher } : infra).app;
  const cb = app.callback();
  const pk = (await request(cb).get('/auth/getConfig')).body.data.publicKey as string;
  const enc = () =>
    publicEncrypt({ key: pk, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from('admin123')).toString('base64');
  await request(cb).post('/auth/login').set('X-Forwarded-For', '10.0.0.1').send({ username: 'admin', password: enc() }); // warm-up

  const h = monitorEventLoopDelay({ resolution: 10 });
  const probes: number[] = [];
  let stop = false;
  const prober = (async () => {
    while (!stop) {
      const t = performance.now();
      await request(cb).get('/auth/getConfig');
      probes.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  h.enable();
  const t0 = performance.now();
  const results = await Promise.all(
    Array.from({ length: N }, (_, i) =>
      request(cb)
        .post('/auth/login')
        .set('X-Forwarded-For', `10.1.${i >> 8}.${i & 255}`)
        .send({ username: 'admin', password: enc() }),
    ),
  );
  const elapsed = performance.now() - t0;
  h.disable();
  stop = true;
  await prober;
  const ok = results.filter((r) => r.status === 200).length;
  probes.sort((a, b) => a - b);
  const pct = (p: number) => (probes[Math.min(probes.length - 1, Math.floor((p / 100) * probes.length))] ?? NaN).toFixed(1);
  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  console.log(
    `${label.padEnd(30)} ${ok}/${N} logins ok in ${elapsed.toFixed(0)} ms | event-loop delay ` +
      `p50 ${ms(h.percentile(50))} ms, p99 ${ms(h.percentile(99))} ms, max ${ms(h.max)} ms | GET ` +
      `/auth/getConfig during the storm: n=${probes.length}, p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${pct(100)} ms`,
  );
  await infra.close();
}

async function main(): Promise<void> {
  console.log(`${N} concurrent admin logins, BCrypt cost 10, ${availableParallelism()} CPUs, Node ${process.version}`);
  await round('BCrypt on the worker pool', false);
  await round('BCrypt on the main thread', true);
}

void main();
