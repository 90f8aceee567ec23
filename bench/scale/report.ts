/**
 * The scale bench's tables (Markdown, one per mode: a row per figure, a column per size, then the
 * ends of a session) and its summary against issue 30's goals.
 */
import type { EndFigure } from './lifecycle';
import { LIST_REQUESTS, type ListRequest } from './listing';
import type { Timed } from './per-user';
import type { ModeFigures, SizeFigures } from './run-mode';

export const GOALS = {
  bytesPerSession: 1024,
  keysPerSession: 3,
  listP50Ms: 20,
  ownListMs: 50,
  stallMs: 50,
  bulkMs: 500,
  largestKeyBytes: 10 * 1024 * 1024,
} as const;

const n = (x: number) => x.toLocaleString('en');
const kb = (b: number) =>
  b >= 1024 * 1024 ? `${(b / 1024 / 1024).toFixed(1)} MB` : b >= 1024 ? `${(b / 1024).toFixed(2)} KB` : `${Math.round(b)} B`;
function timed(t: Timed | undefined): string {
  if (t === undefined) return '–';
  const size = t.bytes === undefined ? '' : `, ${kb(t.bytes)}`;
  return `${n(Math.round(t.ms))} ms${size} (loop ${t.maxLoopDelay} ms)${t.status === undefined ? '' : ` HTTP ${t.status}¹`}`;
}

type Row = readonly [string, (s: SizeFigures) => string];

function rows(m: ModeFigures): Row[] {
  const redis = m.mode !== 'memory';
  const list = (r: ListRequest): Row => [
    `\`${LIST_REQUESTS[r]}\` p50 / p99 (loop max)`,
    (s) => `${s.list[r].p50} / ${s.list[r].p99} ms (${s.list[r].maxLoopDelay})`,
  ];
  const out: Row[] = [
    ['fill through the store (sessions/s)', (s) => n(s.fill.perSecond)],
    [
      redis ? 'Redis bytes / session, store (used_memory Δ / N)' : 'heap bytes / session, store (after GC)',
      (s) => kb(s.fill.bytesPerSession),
    ],
  ];
  if (redis) {
    out.push(['keys / session, store (DBSIZE Δ / N)', (s) => String(s.fill.keysPerSession)]);
    out.push([
      'largest keys (MEMORY USAGE)',
      (s) =>
        (s.census?.largest ?? [])
          .slice(0, 2)
          .map((k) => `\`${short(k.key)}\` ${kb(k.bytes)}`)
          .join(', ') || '–',
    ]);
  }
  out.push(...(Object.keys(LIST_REQUESTS) as ListRequest[]).map(list));
  out.push(
    ['one user, 10k sessions: GET /auth/sessions (admin)', (s) => timed(s.perUser?.adminList)],
    ['… replacing login (is-concurrent=false)', (s) => timed(s.perUser?.replacingLogin)],
    ['… POST /system/user/{id}/kickout (kick all)', (s) => timed(s.perUser?.kickAll)],
    ['… GET /user/sessions (web)', (s) => timed(s.perUser?.webList)],
    ['… POST /user/logout-all (web)', (s) => timed(s.perUser?.logoutAll)],
  );
  if (redis) {
    out.push([
      '… per-user index at 10k sessions',
      (s) => (s.perUser?.userIndexBytes === null || s.perUser?.userIndexBytes === undefined ? '–' : kb(s.perUser.userIndexBytes)),
    ]);
    out.push([
      '… keys left per ended session',
      (s) => (s.perUser?.keysLeftPerEnded ? `${s.perUser.keysLeftPerEnded.total} ${spaces(s.perUser.keysLeftPerEnded.bySpace)}` : '–'),
    ]);
  }
  return out;
}

const short = (key: string) => (key.length > 40 ? `${key.slice(0, 28)}…` : key);
const spaces = (by: Record<string, number>) =>
  Object.keys(by).length === 0
    ? ''
    : `(${Object.entries(by)
        .sort((a, b) => b[1] - a[1])
        .map(([s, c]) => `${s} ${c === 0 ? '<0.01' : c}`)
        .join(', ')})`;

function endsTable(ends: readonly EndFigure[]): string[] {
  const lines = [
    '',
    '| the session ends by | keys its login wrote | keys left right after | of them, alive a day after the end |' +
      ' longest outlives the end by | bytes left | left, by space |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const e of ends) {
    const longest = e.longestDays === null ? '–' : e.longestDays === -1 ? 'never expires' : `${e.longestDays} d`;
    const by = spaces(e.bySpace).replace(/^\(|\)$/g, '') || '–';
    lines.push(`| ${e.end} | ${e.keysOfLogin} | ${e.left} | ${e.leftAfterDay} | ${longest} | ${kb(e.bytesLeft)} | ${by} |`);
  }
  return lines;
}

function sampleLine(m: ModeFigures): string {
  const s = m.loginSample;
  const head = `Real logins over HTTP (${n(s.logins)}, ${s.perSecond}/s`;
  if (m.mode === 'memory')
    return `${head}): ${kb(s.bytesPerSession)} of heap per session (refresh state, rate-limit entries and audit events included).`;
  return [
    `${head}, with refresh tokens): **${kb(s.bytesPerSession)}** (used_memory Δ, login-side keys taken out)`,
    `/ ${kb(s.memoryUsagePerSession ?? 0)} (Σ MEMORY USAGE) and **${s.keysPerSession} keys** per session ${spaces(s.keysBySpace ?? {})};`,
    `besides, per login: ${s.loginSide?.keys} keys / ${kb(s.loginSide?.bytes ?? 0)} of rate-limit log and audit stream.`,
  ].join(' ');
}

const REFUSED_NOTE = [
  '',
  '¹ The replacing login was answered 401 "The account changed during this login" after replacing the sessions (with',
  '`session.is-concurrent=false` every password login of this tree is: the refresh cut-off its own replacement writes is',
  'later than the account read before the password check). The time is that of the replacement, which was done.',
];

export function modeTable(m: ModeFigures): string {
  const sizes = m.sizes;
  const lines = [
    `| ${m.mode} | ${sizes.map((z) => `${n(z.sessions)} sessions`).join(' | ')} |`,
    `|---|${sizes.map(() => '---').join('|')}|`,
  ];
  for (const [label, cell] of rows(m)) lines.push(`| ${label} | ${sizes.map(cell).join(' | ')} |`);
  const refused = sizes.some((z) => z.perUser?.replacingLogin.status !== undefined);
  return [`### ${m.mode}`, '', sampleLine(m), '', ...lines, ...(refused ? REFUSED_NOTE : []), ...(m.ends ? endsTable(m.ends) : [])].join(
    '\n',
  );
}

const goal = (ok: boolean, what: string, figures: string) => `- ${ok ? 'met' : '**NOT MET**'}: ${what}: ${figures}`;
const ms = (x: number) => `${n(Math.round(x))} ms`;

function footprintGoals(m: ModeFigures, last: SizeFigures, at: string): string[] {
  const s = m.loginSample;
  if (m.mode === 'memory') {
    const heap = Math.max(s.bytesPerSession, last.fill.bytesPerSession);
    return [
      goal(
        heap <= GOALS.bytesPerSession,
        `≤ 1 KB heap per session (${at})`,
        `store ${kb(last.fill.bytesPerSession)}, real login ${kb(s.bytesPerSession)}`,
      ),
    ];
  }
  const out = [
    goal(s.bytesPerSession <= GOALS.bytesPerSession, `≤ 1 KB per session, real login (${m.mode})`, kb(s.bytesPerSession)),
    goal((s.keysPerSession ?? Infinity) <= GOALS.keysPerSession, `≤ 3 keys per session, real login (${m.mode})`, String(s.keysPerSession)),
  ];
  const big = last.census?.largest[0];
  if (big) out.push(goal(big.bytes <= GOALS.largestKeyBytes, `no key over 10 MB (${at})`, `\`${short(big.key)}\` ${kb(big.bytes)}`));
  return out;
}

/** One line per goal and mode, at the largest size. */
export function summary(modes: readonly ModeFigures[]): string {
  const out: string[] = ['### Against the goals of issue 30 (largest size of the run)', ''];
  for (const m of modes) {
    const last = m.sizes[m.sizes.length - 1];
    if (last === undefined) continue;
    const at = `${m.mode}, ${n(last.sessions)}`;
    out.push(...footprintGoals(m, last, at));
    const pages = (['firstPage', 'deepPage', 'byUsername', 'byIp'] as const).map((r) => [r, last.list[r].p50] as const);
    const slow = pages.filter(([, p]) => p > GOALS.listP50Ms);
    out.push(goal(slow.length === 0, `online pages ≤ 20 ms p50 (${at})`, pages.map(([r, p]) => `${r} ${p} ms`).join(', ')));
    out.push(...perUserGoals(last, at));
    if (m.ends) {
      const left = m.ends.filter((e) => e.leftAfterDay > 0);
      const which = left.length === 0 ? 'none' : left.map((e) => `${e.end} ${e.leftAfterDay}`).join(', ');
      out.push(goal(left.length === 0, `nothing kept a day past a session's end (${m.mode}; keys)`, which));
    }
  }
  return out.join('\n');
}

function perUserGoals(last: SizeFigures, at: string): string[] {
  const u = last.perUser;
  const stalls = [
    ...(Object.keys(LIST_REQUESTS) as ListRequest[]).map((r) => [r, last.list[r].maxLoopDelay] as const),
    ...(u ? (['adminList', 'replacingLogin', 'kickAll', 'webList', 'logoutAll'] as const).map((k) => [k, u[k].maxLoopDelay] as const) : []),
  ];
  const worst = stalls.reduce((a, b) => (b[1] > a[1] ? b : a), ['none', 0] as readonly [string, number]);
  const out = [goal(worst[1] <= GOALS.stallMs, `no event-loop stall over 50 ms (${at})`, `longest ${worst[1]} ms (${worst[0]})`)];
  if (u) {
    const bulk = (['replacingLogin', 'kickAll', 'logoutAll'] as const).map((k) => [k, u[k].ms] as const);
    const what = `bulk ends ≤ 500 ms (${at}, ${n(u.sessions)} sessions)`;
    out.push(
      goal(
        bulk.every(([, t]) => t <= GOALS.bulkMs),
        what,
        bulk.map(([k, t]) => `${k} ${ms(t)}`).join(', '),
      ),
    );
    const ok = Math.max(u.adminList.ms, u.webList.ms) <= GOALS.ownListMs;
    out.push(goal(ok, `own-session list ≤ 50 ms (${at})`, `admin ${ms(u.adminList.ms)}, web ${ms(u.webList.ms)}`));
  }
  return out;
}
