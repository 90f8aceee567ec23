/**
 * The per-user refresh cut-offs (`rtcut:<type>:<user id>`): every refresh family born before a
 * cut-off that applies to it is refused at its next refresh. Kept min(refresh-token TTL, family
 * lifetime) from the last cut: no family born before it can present a token after that (its last
 * token was issued before the cut, and it ends within its lifetime of its birth).
 *
 * Two kinds, in one record:
 * - the account's (`all`): "log out everywhere", a disable, a password change or reset; every family
 *   of the user. A login re-checks it after writing its session (FinishLogin): one written since the
 *   account was read ends that login.
 * - a replacement's (`d`, per device type, `*` for every one): a login under is-concurrent=false
 *   (OLD_DEVICE) replaces the sessions of its replaced range, and every family of that range born
 *   before it is refused, also those whose access token had lapsed and were no longer listed. A
 *   login never re-checks these: they are what logins write.
 *
 * Stored as the account cut-off alone (`<ms>`, the format of earlier releases, read as before) or
 * as JSON `{"all": <ms>?, "d": {"<device type>" | "*": <ms>}}`. An account cut-off is written over
 * the whole record (it is now, later than every replacement's). A replacement's is merged into it
 * by compare-and-set.
 */
import type { KeyValueStore } from '../ports/key-value-store';
import { parseJsonObject } from '../../domain/json-record';
import type { LoginType } from '../../domain/login-type';

/** A replacement of every device type (session.replaced-range=ALL_DEVICE_TYPE). */
export const EVERY_DEVICE_TYPE = '*';

interface CutOffs {
  readonly all: number | null;
  readonly byDevice: ReadonlyMap<string, number>;
}

/** Rounds of the compare-and-set before a replacement's cut-off gives up (each lost round is another writer's success). */
const MAX_CAS_ROUNDS = 200;
/** Longest random pause (ms) between two rounds. */
const MAX_PAUSE_MS = 20;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const keyOf = (loginType: LoginType, userId: string): string => `rtcut:${loginType}:${userId}`;

function readCutOffs(raw: string | null): CutOffs {
  if (raw === null) return { all: null, byDevice: new Map() };
  if (/^\d+$/.test(raw.trim())) return { all: Number(raw), byDevice: new Map() };
  const o = parseJsonObject(raw);
  const all = typeof o?.all === 'number' ? o.all : null;
  const d = o?.d;
  // Keyed by client-chosen device types: a Map, so `__proto__`, `constructor` or `toString` are device types like any
  // other (on a plain object they read Object.prototype's members, and Math.max of one is NaN: no cut-off applied).
  const byDevice = new Map<string, number>();
  if (typeof d === 'object' && d !== null && !Array.isArray(d)) {
    for (const [k, v] of Object.entries(d as Record<string, unknown>)) if (typeof v === 'number' && Number.isFinite(v)) byDevice.set(k, v);
  }
  return { all, byDevice };
}

export class RefreshCutOffs {
  constructor(
    private readonly kv: KeyValueStore,
    /** How long a cut-off is kept (ms). */
    private readonly ttlMs: number,
  ) {}

  /** The account's cut-off at `at` (ms): every family of the user. One SET. */
  async cutAccount(loginType: LoginType, userId: string, at: number): Promise<void> {
    await this.kv.set(keyOf(loginType, userId), String(at), this.ttlMs);
  }

  /**
   * A replacement's cut-off at `at` for the families of `deviceType` (EVERY_DEVICE_TYPE: all of
   * them), merged into the record by compare-and-set (a GET and a write; again if another write won,
   * after a short random pause: every lost round means another writer landed, so it ends, but many
   * logins of one account at once, one per instance or device type, may need many rounds). Nothing
   * to write when the record already cuts that device type at `at` or later.
   */
  async cutDevice(loginType: LoginType, userId: string, deviceType: string, at: number): Promise<void> {
    const key = keyOf(loginType, userId);
    for (let attempt = 0; ; attempt++) {
      const raw = await this.kv.get(key);
      const cut = readCutOffs(raw);
      if ((cut.byDevice.get(deviceType) ?? 0) >= at) return;
      const byDevice = new Map(cut.byDevice).set(deviceType, at);
      const next = JSON.stringify({ ...(cut.all !== null ? { all: cut.all } : {}), d: Object.fromEntries(byDevice) });
      const written =
        raw === null ? await this.kv.setIfAbsent(key, next, this.ttlMs) : await this.kv.replaceIfEquals(key, raw, next, this.ttlMs);
      if (written) return;
      if (attempt >= MAX_CAS_ROUNDS) throw new Error(`refresh cut-off ${key}: too many concurrent writes`);
      await pause(Math.random() * Math.min(2 ** attempt, MAX_PAUSE_MS));
    }
  }

  /** The account's cut-off (ms), null when there is none. One GET. */
  async ofAccount(loginType: LoginType, userId: string): Promise<number | null> {
    return readCutOffs(await this.kv.get(keyOf(loginType, userId))).all;
  }

  /** The latest cut-off that applies to a family of `deviceType` (0 when none does). One GET. */
  async forDevice(loginType: LoginType, userId: string, deviceType: string): Promise<number> {
    const cut = readCutOffs(await this.kv.get(keyOf(loginType, userId)));
    return Math.max(cut.all ?? 0, cut.byDevice.get(deviceType) ?? 0, cut.byDevice.get(EVERY_DEVICE_TYPE) ?? 0);
  }
}
