/**
 * `npm run bench:session-value`: what one Redis session costs in the layout of one key per session
 * (docs/sessions.md, "Session keys in Redis") against the previous release's s + a + t keys:
 *
 * 1. decode and encode time of the stored value per call (the authenticated request decodes one, as does
 *    the local session cache on a miss): the previous JSON record vs the packed one (session-pack.ts), and
 *    the JSON-object fallback in the new layout;
 * 2. MEMORY USAGE of each key (SAMPLES 0) on a Redis of its own (bench/redis.ts): a live session, a
 *    tombstone, and the rejected alternative of a small hash (record and last-active as two fields).
 *
 * The record is the one a password login over HTTP writes (directory user, IP, User-Agent and its parsed
 * names, device type, the refresh family attribute).
 */
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { decodeStored, encodeSession, lastActiveField } from '../src/adapters/redis/session-codec';
import { storedSessionOf } from '../src/adapters/redis/session-values';
import { hashToken, tokenIdOf } from '../src/application/session/session-token';
import type { SessionRecord } from '../src/domain/session';
import { benchRedis } from './redis';

const ROUNDS = 15;
const CALLS = Number(process.env.SESSION_VALUE_CALLS ?? 50_000);

function loginRecord(hash: string, tokenId: string): SessionRecord {
  const now = Date.now();
  return {
    v: 1,
    loginType: 'admin',
    tokenId,
    createdAt: now,
    expiresAt: now + 604_800_000,
    principal: {
      userId: '1042',
      username: 'user1042',
      nickname: 'User 1042',
      roles: ['common'],
      permissions: ['system:user:list', 'monitor:online:list'],
    },
    client: {
      ip: '192.0.2.77',
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
      os: 'Windows 10',
      browser: 'Chrome 124',
      deviceType: 'PC',
    },
    attrs: { rtFamily: `${now}.${randomUUID()}` },
  };
}

/**
 * Median ns per call of each function over ROUNDS rounds of CALLS calls, the functions taking turns
 * within each round (a busy machine slows them alike instead of one more than another).
 */
function nsPerCall(fns: ReadonlyArray<() => unknown>): number[] {
  const rounds: number[][] = fns.map(() => []);
  let sink = 0;
  for (let r = 0; r < ROUNDS; r++) {
    fns.forEach((fn, f) => {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < CALLS; i++) if (fn() !== null) sink++;
      rounds[f]?.push(Number(process.hrtime.bigint() - t0) / CALLS);
    });
  }
  if (sink < 0) console.log(sink);
  return rounds.map((times) => times.sort((a, b) => a - b)[ROUNDS >> 1] as number);
}

async function memory(url: string, values: Record<string, string>, hash: string): Promise<Array<[string, number]>> {
  const redis = new Redis(url);
  const p = `ag:${process.pid}:`;
  try {
    const keys: Record<string, string> = {
      'previous: s (record JSON)': `${p}s:admin:${hash}`,
      'previous: a (last-active)': `${p}a:admin:${hash}`,
      'previous: t (token id)': `${p}t:admin:${hash.slice(0, 16)}`,
      'previous: tombstone (s)': `${p}s:admin:${hash}x`,
      'now: s (one key)': `${p}s:admin:${hash.slice(0, 32)}`,
      'now: tombstone': `${p}s:admin:${hash.slice(0, 32)}x`,
    };
    for (const [name, key] of Object.entries(keys)) await redis.set(key, values[name] as string, 'PX', 3_600_000);
    const hashKey = `${p}h:admin:${hash.slice(0, 32)}`;
    await redis.hset(hashKey, 'a', values.last as string, 'r', values.body as string);
    await redis.pexpire(hashKey, 3_600_000);
    const out: Array<[string, number]> = [];
    for (const [name, key] of Object.entries(keys)) out.push([name, Number(await redis.memory('USAGE', key, 'SAMPLES', 0))]);
    out.push(['rejected: hash of 2 fields', Number(await redis.memory('USAGE', hashKey, 'SAMPLES', 0))]);
    await redis.del(...Object.values(keys), hashKey);
    return out;
  } finally {
    redis.disconnect();
  }
}

async function main(): Promise<void> {
  const hash = hashToken(randomUUID());
  const legacyRecord = loginRecord(hash, hash.slice(0, 16));
  const record = loginRecord(hash, tokenIdOf(hash));
  const legacyJson = JSON.stringify(legacyRecord);
  const value = encodeSession(Date.now(), hash, record);
  const fallback = `${lastActiveField(Date.now())}|${hash}|${JSON.stringify(record)}`;
  if (JSON.stringify(decodeStored(value)) !== JSON.stringify({ state: 'active', record }))
    throw new Error('packed record does not round-trip');

  const calls: Array<[string, () => unknown]> = [
    ['decode, previous layout: JSON record (+ a key)', () => storedSessionOf(hash, legacyJson, '1764000000000')],
    ['decode, one key: packed record', () => storedSessionOf(hash, value, null)],
    ['decode, one key: JSON-object fallback', () => storedSessionOf(hash, fallback, null)],
    ['encode, previous layout: JSON.stringify', () => JSON.stringify(legacyRecord)],
    ['encode, one key: packed', () => encodeSession(Date.now(), hash, record)],
  ];
  const ns = nsPerCall(calls.map(([, fn]) => fn));
  const times = calls.map(([name], i): [string, number] => [name, ns[i] as number]);
  console.log(`\nSession value, ${CALLS} calls x ${ROUNDS} rounds (median), Node ${process.version}\n`);
  console.log('| call | ns / call |\n|---|---|');
  for (const [name, ns] of times) console.log(`| ${name} | ${ns.toFixed(0)} |`);
  console.log(`\nbytes of the value: previous JSON ${legacyJson.length} (+ a 13, t 64); one key ${value.length}`);

  const redis = await benchRedis();
  try {
    const bar = value.indexOf('|', 14);
    const values: Record<string, string> = {
      'previous: s (record JSON)': legacyJson,
      'previous: a (last-active)': String(Date.now()),
      'previous: t (token id)': hash,
      'previous: tombstone (s)': 'kicked-out',
      'now: s (one key)': value,
      'now: tombstone': 'k',
      last: value.slice(0, 13),
      body: value.slice(14, bar) + value.slice(bar),
    };
    const mem = await memory(redis.url, values, hash);
    console.log(`\nMEMORY USAGE (SAMPLES 0), ${redis.description}\n`);
    console.log('| key | bytes |\n|---|---|');
    for (const [name, bytes] of mem) console.log(`| ${name} | ${bytes} |`);
    const get = (n: string): number => mem.find(([k]) => k === n)?.[1] ?? 0;
    const before = get('previous: s (record JSON)') + get('previous: a (last-active)') + get('previous: t (token id)');
    console.log(`\nper live session: previous ${before} B in 3 keys; now ${get('now: s (one key)')} B in 1 key`);
  } finally {
    redis.stop();
  }
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
