/**
 * What a second factor costs (issue 26), in process, on the real use cases and adapters (otpauth
 * for the codes, AES-256-GCM sealed secrets, the in-memory TOTP store of the embedded directory, the
 * session and key-value stores on memory or Redis), for each app. Four kinds of op:
 *
 *  - totp-verify: a TOTP verify, the path that checks a code (`TotpFactors.verify`: the factor read,
 *    its sealed secret opened, the codes of steps -1..+1 computed and compared in constant time, the
 *    accepted step recorded against replay);
 *  - password-login: a password check's non-BCrypt part, i.e. everything a password login does but
 *    the BCrypt compare (`Login` with a PasswordHasher whose compare answers at once: the RSA-OAEP
 *    decrypt on admin, the failure budget, the lookup, the account's factors read, the session);
 *  - second-step: the whole second step of a login (`VerifyMfa` with a code: the mfaToken read and
 *    taken, the failure budget, the TOTP verify, the session), the like-for-like of password-login;
 *  - password-check: the password check alone, BCrypt out (the decrypt on admin, the lookup, the
 *    instant compare).
 *
 * Target (the issue's): totp-verify / password-login <= 1.2 in CPU per op. Also printed:
 * second-step / password-login and totp-verify / password-check. With a Redis, the commands each
 * kind of login sends (MONITOR, those naming the infrastructure's keys), by command.
 *
 * Each kind runs in batches: a batch's ops are prepared first (untimed: an mfaToken, a code), then
 * run back to back and timed together (wall time, and the process's CPU time, process.cpuUsage).
 * Every op runs at a time step of its own (each code is accepted once), the password ops too.
 * A round runs one batch of each kind, in an order that turns each round; a ratio is the median
 * of its per-round ratios. Run compiled, as the servers are (`npm run bench` forks
 * bench/.build/bench/mfa-cost.js; under tsx every closure is wrapped and costs more).
 *
 *   npx tsc -p bench/tsconfig.json && [BENCH_REDIS_URL=redis://...] node bench/.build/bench/mfa-cost.js
 * Env: BENCH_MFA_ROUNDS (default 9), BENCH_MFA_OPS per batch on the in-memory store (default 1000; a fifth on Redis).
 */
import 'reflect-metadata';
import { constants, publicEncrypt, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import bcrypt from 'bcryptjs';
import Redis from 'ioredis';
import { generateEphemeralRsaKey, NodeRsaDecryptor, NoRsaDecryptor } from '../src/adapters/crypto/rsa';
import { silentLogger } from '../src/adapters/logging/pino-logger';
import { OtpauthTotp } from '../src/adapters/otp/otpauth-totp';
import { isMfaPending, Login } from '../src/application/auth/login';
import { PasswordCheck } from '../src/application/auth/password-check';
import { MfaChallenges } from '../src/application/mfa/mfa-challenges';
import { TotpFactors } from '../src/application/mfa/totp-factors';
import { VerifyMfa } from '../src/application/mfa/verify-mfa';
import type { PasswordHasher } from '../src/application/ports/password-hasher';
import type { DirectoryUser } from '../src/application/ports/user-directory';
import type { LoginType } from '../src/domain/login-type';
import { loadConfig } from '../src/main/config';
import { createContainer } from '../src/main/container';
import { createInfrastructure, type Infrastructure } from '../src/main/infrastructure';
import { deleteByPrefix } from '../test/support/services';
import { median } from './build';

const ROUNDS = Number(process.env.BENCH_MFA_ROUNDS ?? 9);
/** Ops per kind and batch on the in-memory store (a batch of ~0.2 s); on Redis, whose ops wait for it, a fifth of them. */
const OPS = Number(process.env.BENCH_MFA_OPS ?? 1000);
const TARGET = 1.2;
/** Unmeasured batches of each kind first: the compiler has settled by the measured ones. */
const WARM_UP_BATCHES = 3;
const STEP_MS = 30_000;
const CLIENT = { ip: '127.0.0.1', userAgent: 'bench' };

/** The clock of the use cases and stores: real time plus an offset, which the bench sets. */
class SteppingClock {
  private offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
  /** Now is `t` (and moves on with real time from there). */
  set(t: number): void {
    this.offset = t - Date.now();
  }
}

/** A compare that answers at once: the password check without its BCrypt. */
const instantHasher = (real: PasswordHasher): PasswordHasher => ({ hash: (p, cost) => real.hash(p, cost), verify: async () => true });

interface Cost {
  readonly cpuUs: number;
  readonly wallUs: number;
}

const KINDS = ['totp-verify', 'password-login', 'second-step', 'password-check'] as const;
type Kind = (typeof KINDS)[number];

/** A ratio of two kinds over the rounds. */
export interface Ratio {
  readonly of: Kind;
  readonly to: Kind;
  /** Medians of the per-round ratios, CPU and wall. */
  readonly cpu: number;
  readonly wall: number;
  /** The middle half of the per-round CPU ratios. */
  readonly cpuSpread: string;
}

export interface AppFigures {
  readonly app: LoginType;
  readonly store: 'memory' | 'redis';
  /** Ops per batch. */
  readonly ops: number;
  /** Median µs per op of each kind over the rounds, CPU and wall. */
  readonly perOp: Readonly<Record<Kind, Cost>>;
  readonly ratios: readonly Ratio[];
}

export interface MfaCost {
  readonly rounds: number;
  readonly figures: readonly AppFigures[];
  readonly commands: readonly LoginCommands[];
}

/** The ops of one batch, prepared (untimed) in advance: each op is then run in turn, timed together. */
type Prepare = (n: number) => Promise<readonly (() => Promise<unknown>)[]>;

/** Wall and CPU time of the batch's ops, per op: the ops run back to back, nothing else in between. */
async function batch(ops: number, prepare: Prepare): Promise<Cost> {
  const run = await prepare(ops);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const op of run) await op();
  const wallUs = (performance.now() - t0) * 1000;
  const cpu = process.cpuUsage(cpu0);
  return { cpuUs: (cpu.user + cpu.system) / ops, wallUs: wallUs / ops };
}

function spread(ratios: readonly number[]): string {
  const s = [...ratios].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))] as number;
  return `${at(0.25).toFixed(3)}–${at(0.75).toFixed(3)}`;
}

/** Warm-up batches, then ROUNDS rounds of one batch per kind, the order turned by one each round. */
async function measureKinds(ops: number, kinds: Readonly<Record<Kind, Prepare>>): Promise<Pick<AppFigures, 'perOp' | 'ratios'>> {
  for (let i = 0; i < WARM_UP_BATCHES; i++) for (const k of KINDS) await batch(ops, kinds[k]);
  const costs = Object.fromEntries(KINDS.map((k) => [k, [] as Cost[]])) as Record<Kind, Cost[]>;
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < KINDS.length; i++) {
      const k = KINDS[(r + i) % KINDS.length] as Kind;
      costs[k].push(await batch(ops, kinds[k]));
    }
  }
  const round1 = (x: number) => +x.toFixed(1);
  const perOp = Object.fromEntries(
    KINDS.map((k) => [k, { cpuUs: round1(median(costs[k].map((c) => c.cpuUs))), wallUs: round1(median(costs[k].map((c) => c.wallUs))) }]),
  ) as Record<Kind, Cost>;
  const ratio = (of: Kind, to: Kind): Ratio => {
    const per = (m: keyof Cost) => costs[of].map((c, i) => c[m] / (costs[to][i] as Cost)[m]);
    return { of, to, cpu: +median(per('cpuUs')).toFixed(3), wall: +median(per('wallUs')).toFixed(3), cpuSpread: spread(per('cpuUs')) };
  };
  return {
    perOp,
    ratios: [ratio('totp-verify', 'password-login'), ratio('second-step', 'password-login'), ratio('totp-verify', 'password-check')],
  };
}

/** An app's use cases on its own container, with the instant compare, and two accounts: one with TOTP, one without. */
async function testbed(infra: Infrastructure, config: ReturnType<typeof loadConfig>, app: LoginType, clock: SteppingClock) {
  const admin = app === 'admin';
  const rsa = admin ? new NodeRsaDecryptor(generateEphemeralRsaKey(), config.rsaPadding, infra.cryptoPool) : new NoRsaDecryptor();
  const directory = admin ? infra.directories.admins : infra.directories.members;
  const c = createContainer(config, { ...infra, hasher: instantHasher(infra.hasher) }, app, {
    directory,
    accounts: admin ? infra.directories.adminAccounts : infra.directories.memberAccounts,
    rsa,
  });
  const passwordHash = bcrypt.hashSync('bench-pass-1', 4);
  const suffix = randomBytes(3).toString('hex');
  const user = async (name: string): Promise<DirectoryUser> => {
    const res = await directory.create({ username: `${name}-${suffix}`, passwordHash, nickname: name, roles: [] });
    if (!res.ok) throw new Error(`${name}: ${res.reason}`);
    return res.user;
  };
  const [withTotp, withoutFactor] = [await user('bench-totp'), await user('bench-pwd')];
  const totp = c.get(TotpFactors);
  const algorithm = new OtpauthTotp();
  const { secret } = await totp.setup(app, { userId: withTotp.id, username: withTotp.username });
  await totp.confirm(app, withTotp.id, algorithm.codeAt(secret, Math.floor(clock.now() / STEP_MS)));
  const password = admin
    ? publicEncrypt(
        { key: rsa.publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        Buffer.from('bench-pass-1'),
      ).toString('base64')
    : 'bench-pass-1';
  const [login, verifyMfa, challenges, check] = [c.get(Login), c.get(VerifyMfa), c.get(MfaChallenges), c.get(PasswordCheck)];
  const loginOf = (username: string) => () =>
    login.execute({ loginType: app, username, password, encrypted: admin, requireCaptcha: false, client: CLIENT, deviceCookies: [] });
  /**
   * n ops, each at its own time step (after every step used so far): `setUp` (untimed) readies op i
   * at its time, the op runs at that time again. Each code is then the current one, and new.
   */
  const stepped =
    <T>(setUp: (at: number) => Promise<T>, op: (prepared: T) => Promise<unknown>): Prepare =>
    async (n) => {
      const base = clock.now();
      const ops: (() => Promise<unknown>)[] = [];
      for (let i = 1; i <= n; i++) {
        const at = base + i * STEP_MS;
        clock.set(at);
        const prepared = await setUp(at);
        ops.push(() => (clock.set(at), op(prepared)));
      }
      return ops;
    };
  const codeAt = (at: number) => algorithm.codeAt(secret, Math.floor(at / STEP_MS));
  const passwordLogin = async () => {
    if (isMfaPending(await loginOf(withoutFactor.username)())) throw new Error('the password account has a factor');
  };
  const totpVerify = async (code: string) => {
    if (!(await totp.verify(app, withTotp.id, code))) throw new Error('the TOTP code was refused');
  };
  const kinds: Record<Kind, Prepare> = {
    'totp-verify': stepped(async (at) => codeAt(at), totpVerify),
    'password-login': stepped(async () => undefined, passwordLogin),
    // A fresh mfaToken for each op, issued untimed.
    'second-step': stepped(
      async (at) => ({ mfaToken: await challenges.issue(app, withTotp, at), code: codeAt(at) }),
      (p) => verifyMfa.execute({ loginType: app, ...p, client: CLIENT, deviceCookies: [] }),
    ),
    'password-check': stepped(
      async () => undefined,
      async () => {
        const plain = admin ? await rsa.decrypt(password) : password;
        if (!(await check.matches(await directory.findByUsername(withoutFactor.username), plain))) throw new Error('refused');
      },
    ),
  };
  return {
    kinds,
    /** For the command count, one op each at a new time step. */
    once: {
      passwordLogin: async () => {
        clock.set(clock.now() + STEP_MS);
        await passwordLogin();
      },
      twoStepLogin: async () => {
        clock.set(clock.now() + STEP_MS);
        const out = await loginOf(withTotp.username)();
        if (!isMfaPending(out)) throw new Error('the TOTP account logged in in one step');
        await verifyMfa.execute({ loginType: app, mfaToken: out.mfaToken, code: codeAt(clock.now()), client: CLIENT, deviceCookies: [] });
      },
      totpVerify: async () => {
        clock.set(clock.now() + STEP_MS);
        await totpVerify(codeAt(clock.now()));
      },
    },
  };
}

export interface LoginCommands {
  readonly app: LoginType;
  readonly passwordLogin: CommandCount;
  readonly twoStepLogin: CommandCount;
  readonly totpVerify: CommandCount;
}

/** What one op sends to Redis: the commands a client sends (round trips, pipelined or not) and those its scripts run. */
export interface CommandCount {
  /** Commands sent per op, in total and by command. */
  readonly sent: number;
  readonly byCommand: Readonly<Record<string, number>>;
  /** Commands the scripts of those ran inside Redis, per op (INFO commandstats counts these too). */
  readonly inScripts: number;
}

/**
 * Redis commands per op of `run` (n ops), read with MONITOR: only those naming a key under `prefix`
 * (the ops' infrastructure; not the bench's own or another client's), sent ones by name.
 */
async function perOp(redisUrl: string, prefix: string, n: number, run: () => Promise<void>): Promise<CommandCount> {
  const monitor = await new Redis(redisUrl).monitor();
  const sent = new Map<string, number>();
  let inScripts = 0;
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (!args.some((a) => a.startsWith(prefix))) return;
    if (source === 'lua') inScripts++;
    else sent.set(String(args[0]).toLowerCase(), (sent.get(String(args[0]).toLowerCase()) ?? 0) + 1);
  });
  try {
    await new Promise((r) => setTimeout(r, 100));
    for (let i = 0; i < n; i++) await run();
    await new Promise((r) => setTimeout(r, 200)); // what the ops left in flight lands here
  } finally {
    monitor.disconnect();
  }
  const per = (x: number) => +(x / n).toFixed(2);
  const byCommand = Object.fromEntries([...sent].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, per(v)]));
  return { sent: per([...sent.values()].reduce((a, b) => a + b, 0)), byCommand, inScripts: per(inScripts) };
}

async function measureStore(
  store: 'memory' | 'redis',
  redisUrl: string | undefined,
): Promise<{ figures: AppFigures[]; commands: LoginCommands[] }> {
  const clock = new SteppingClock();
  const config = loadConfig({
    env: { APP_PROFILE: 'test' },
    overrides: {
      'svc.captcha.enabled': false,
      'svc.crypto.worker-threads': 1,
      ...(store === 'redis' ? { 'svc.store': 'redis', 'svc.redis.url': redisUrl } : {}),
    },
  });
  const keyPrefix = `bench-mfa-${randomBytes(4).toString('hex')}:`;
  const infra = createInfrastructure(config, { log: silentLogger, clock, keyPrefix });
  const figures: AppFigures[] = [];
  const commands: LoginCommands[] = [];
  try {
    for (const app of ['admin', 'web'] as const) {
      const bed = await testbed(infra, config, app, clock);
      const ops = store === 'redis' ? Math.max(1, Math.round(OPS / 5)) : OPS;
      figures.push({ app, store, ops, ...(await measureKinds(ops, bed.kinds)) });
      if (store === 'redis' && redisUrl !== undefined) {
        const n = Math.min(ops, 100);
        commands.push({
          app,
          passwordLogin: await perOp(redisUrl, keyPrefix, n, bed.once.passwordLogin),
          twoStepLogin: await perOp(redisUrl, keyPrefix, n, bed.once.twoStepLogin),
          totpVerify: await perOp(redisUrl, keyPrefix, n, bed.once.totpVerify),
        });
      }
    }
  } finally {
    await infra.close();
    if (redisUrl !== undefined && store === 'redis') {
      const redis = new Redis(redisUrl);
      await deleteByPrefix(redis, keyPrefix);
      redis.disconnect();
    }
  }
  return { figures, commands };
}

/** On the in-memory store, and on Redis when `redisUrl` is given. */
export async function measureMfaCost(redisUrl?: string): Promise<MfaCost> {
  const memory = await measureStore('memory', undefined);
  const redis = redisUrl === undefined ? { figures: [], commands: [] } : await measureStore('redis', redisUrl);
  return { rounds: ROUNDS, figures: [...memory.figures, ...redis.figures], commands: redis.commands };
}

export function describeMfaCost(m: MfaCost): string[] {
  const lines: string[] = [];
  for (const f of m.figures) {
    const costs = KINDS.map((k) => `${k} ${f.perOp[k].cpuUs} / ${f.perOp[k].wallUs}`).join(', ');
    lines.push(`mfa-cost ${f.app} ${f.store}: µs CPU / wall per op: ${costs}`);
    for (const r of f.ratios) {
      const target =
        r.of === 'totp-verify' && r.to === 'password-login' ? ` (target ≤ ${TARGET}: ${r.cpu <= TARGET ? 'met' : 'NOT MET'})` : '';
      lines.push(`mfa-cost ${f.app} ${f.store}: ${r.of} / ${r.to}: CPU ${r.cpu}× (middle half ${r.cpuSpread}), wall ${r.wall}×${target}`);
    }
  }
  for (const c of m.commands) {
    const show = (r: CommandCount) =>
      `${r.sent} (${Object.entries(r.byCommand)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}; ${r.inScripts} more in scripts)`;
    lines.push(
      `mfa-cost ${c.app} Redis commands sent: a password login ${show(c.passwordLogin)}; ` +
        `a login in two steps ${show(c.twoStepLogin)}; a TOTP verify ${show(c.totpVerify)}`,
    );
  }
  return lines;
}

if (require.main === module) {
  measureMfaCost(process.env.BENCH_REDIS_URL)
    .then((m) => {
      // Forked by bench/run.ts: the figures go back to it, which prints and keeps them.
      if (process.send !== undefined) {
        process.send(m, () => process.exit(0));
        return;
      }
      console.log(describeMfaCost(m).join('\n'));
      const dir = path.join(process.cwd(), 'bench/results');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'mfa-cost.json'), JSON.stringify({ date: new Date().toISOString(), ...m }, null, 2));
    })
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}
