/**
 * Login timing: does a failed login reveal whether the account exists? Alternates logins of an
 * unknown user and of a known user with a wrong password against the real admin app (in process,
 * over its HTTP callback, BCrypt cost 10 on one worker thread, sequential so the samples do not
 * queue behind each other), and reports both medians and their ratio (target 0.9-1.1).
 *
 *   npx tsx bench/login-timing.ts [samplesPerKind=60]     (also run by `npm run bench`)
 */
import 'reflect-metadata';
import { constants, publicEncrypt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import request from 'supertest';
import { silentLogger } from '../src/adapters/logging/pino-logger';
import { buildAdminApp } from '../src/main/admin';
import { loadConfig } from '../src/main/config';
import { createInfrastructure } from '../src/main/infrastructure';
import { median } from './build';

export interface LoginTiming {
  readonly samplesPerKind: number;
  readonly unknownUserMedianMs: number;
  readonly wrongPasswordMedianMs: number;
  readonly ratio: number;
}

export async function measureLoginTiming(samples = 60): Promise<LoginTiming> {
  const config = loadConfig({
    env: { APP_PROFILE: 'test' },
    overrides: { 'svc.trusted-proxies': '127.0.0.1,::1', 'svc.login.max-failures': 0, 'svc.crypto.worker-threads': 1 },
  });
  const infra = createInfrastructure(config, { log: silentLogger });
  try {
    const cb = buildAdminApp(config, infra).app.callback();
    const pem = (await request(cb).get('/auth/getConfig')).body.data.publicKey as string;
    const enc = (pw: string) =>
      publicEncrypt({ key: pem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(pw)).toString('base64');
    let n = 0;
    const once = async (username: string): Promise<number> => {
      n++;
      const body = { username, password: enc(`wrong-${n}`) }; // encrypted before the clock starts
      const t = performance.now();
      const res = await request(cb)
        .post('/auth/login')
        .set('X-Forwarded-For', `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`)
        .send(body);
      const ms = performance.now() - t;
      if (res.status !== 401) throw new Error(`expected 401, got ${res.status} ${res.text}`);
      return ms;
    };
    for (let i = 0; i < 5; i++) await once(i % 2 ? 'admin' : 'nobody'); // warm-up (dummy hash, JIT, worker)
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < samples; i++) {
      // alternate the order too, so drift in machine load hits both kinds alike
      if (i % 2 === 0) {
        unknown.push(await once(`nobody-${i}`));
        wrong.push(await once('admin'));
      } else {
        wrong.push(await once('admin'));
        unknown.push(await once(`nobody-${i}`));
      }
    }
    const u = median(unknown);
    const w = median(wrong);
    return {
      samplesPerKind: samples,
      unknownUserMedianMs: +u.toFixed(2),
      wrongPasswordMedianMs: +w.toFixed(2),
      ratio: +(u / w).toFixed(3),
    };
  } finally {
    await infra.close();
  }
}

export function describeTiming(t: LoginTiming): string {
  const ok = t.ratio >= 0.9 && t.ratio <= 1.1;
  return (
    `login timing (${t.samplesPerKind} alternating samples each): unknown user median ` +
    `${t.unknownUserMedianMs} ms, known user + wrong password median ${t.wrongPasswordMedianMs} ` +
    `ms, ratio ${t.ratio} (target 0.9-1.1: ${ok ? 'met' : 'MISSED'})`
  );
}

if (require.main === module) {
  measureLoginTiming(Number(process.argv[2] ?? 60))
    .then((t) => {
      console.log(describeTiming(t));
      const dir = path.join(__dirname, 'results');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'login-timing.json'), JSON.stringify({ date: new Date().toISOString(), ...t }, null, 2));
    })
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}
