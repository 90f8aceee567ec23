/**
 * One mode of the scale bench (memory, standalone or cluster), start to end: its Redis started, the
 * ends of a session measured on a prefix of their own, the login sample, then for each size in
 * turn the filler's sessions added up to it and every figure of that size; everything torn down.
 */
import { performance } from 'node:perf_hooks';
import { SessionManagers } from '../../src/application/session/session-manager';
import { TOKENS } from '../../src/application/tokens';
import { principalOf } from '../../src/application/users/principal';
import { fillStep, loginSample, type FillStep, type LoginSample } from './footprint';
import { LoopDelay, round } from './http';
import { census, type Census } from './keys';
import { measureEnds, type EndFigure } from './lifecycle';
import { measureListing, type ListFigure, type ListRequest } from './listing';
import { perUserPhase, type PerUserFigures } from './per-user';
import { startCluster, startStandalone, type RedisDeployment } from './redis';
import { ACCOUNTS, startStack, type Mode } from './stack';

export interface Options {
  readonly sizes: readonly number[];
  readonly modes: readonly Mode[];
  readonly logins: number;
  readonly userSessions: number;
  readonly samples: number;
  /** Walk every key at each size (MEMORY USAGE of each: the largest keys, bytes by space). */
  readonly census: boolean;
  readonly directory: string;
}

export interface SizeFigures {
  readonly sessions: number;
  /** The filler, cumulated up to this size: bytes and keys per session (Redis: used_memory and DBSIZE deltas; memory: heap). */
  readonly fill: { seconds: number; perSecond: number; bytesPerSession: number; keysPerSession: number | null };
  readonly census: Census | null;
  readonly list: Record<ListRequest, ListFigure>;
  readonly perUser: PerUserFigures | null;
}

export interface ModeFigures {
  readonly mode: Mode;
  readonly ends: EndFigure[] | null;
  readonly loginSample: LoginSample;
  readonly sizes: SizeFigures[];
}

const PREFIX = 'agscale:';

function cumulate(steps: readonly FillStep[]): SizeFigures['fill'] {
  const sum = (f: (s: FillStep) => number) => steps.reduce((a, s) => a + f(s), 0);
  const n = sum((s) => s.sessions);
  const ms = sum((s) => s.ms);
  return {
    seconds: round(ms / 1000),
    perSecond: round(n / (ms / 1000), 0),
    bytesPerSession: round(sum((s) => s.bytes) / n),
    keysPerSession: steps[0]?.keys === null ? null : round(sum((s) => s.keys ?? 0) / n, 2),
  };
}

const say = (mode: Mode, what: string) => process.stderr.write(`[scale ${mode}] ${what}\n`);

export async function runMode(mode: Mode, o: Options): Promise<ModeFigures> {
  const redis: RedisDeployment | null = mode === 'memory' ? null : mode === 'standalone' ? await startStandalone() : await startCluster();
  const loop = new LoopDelay();
  try {
    const ends = redis ? await measureEnds(redis, 'agscale-end:', o.directory) : null;
    if (ends) say(mode, `ends measured (${ends.length})`);
    const stack = await startStack({ mode, ...(redis ? { redis } : {}), prefix: PREFIX, directory: o.directory });
    try {
      let sample: LoginSample | null = null;
      const operator = await stack.admin.built.container.get(TOKENS.AdminDirectory).findById(ACCOUNTS.operator.id);
      if (operator === null) throw new Error('the operator account is missing from the bench directory');
      const operatorToken = (
        await stack.admin.built.container.get(SessionManagers).get('admin').login(principalOf(operator), { ip: '127.0.0.1' })
      ).token;
      const steps: FillStep[] = [];
      const sizes: SizeFigures[] = [];
      let filled = 0;
      for (const size of o.sizes) {
        steps.push(await fillStep(stack, redis, filled, size));
        filled = size;
        const fill = cumulate(steps);
        say(mode, `${size} sessions (${fill.perSecond}/s)`);
        if (sample === null) {
          // After the first fill: the shared keys (the online index and its buckets) exist, as in a service that has sessions.
          sample = await loginSample(stack, redis, PREFIX, o.logins);
          say(mode, `login sample: ${sample.logins} logins, ${sample.perSecond}/s`);
        }
        const started = performance.now();
        const walked = redis && o.census ? await census(redis.masters, PREFIX) : null;
        if (walked) say(mode, `census of ${walked.keys} keys in ${round((performance.now() - started) / 1000)} s`);
        const list = await measureListing(stack.admin.port, operatorToken, o.samples, loop);
        const perUser =
          o.userSessions > 0 ? await perUserPhase(stack, { count: o.userSessions, operatorToken, loop, redis, prefix: PREFIX }) : null;
        say(mode, `${size}: list and per-user phase done`);
        sizes.push({ sessions: size, fill, census: walked, list, perUser });
      }
      if (sample === null) throw new Error('no size was measured');
      return { mode, ends, loginSample: sample, sizes };
    } finally {
      await stack.close();
    }
  } finally {
    loop.stop();
    await redis?.stop();
  }
}
