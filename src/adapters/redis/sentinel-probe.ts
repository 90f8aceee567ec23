/**
 * What each Sentinel says about the master, for the health details: one short-lived connection
 * per Sentinel, no retries, bounded by a timeout. Never throws.
 */
import { hostPort, withProbeConnection } from './probe-connection';

export interface SentinelView {
  readonly address: string;
  readonly reachable: boolean;
  /** host:port of the master this Sentinel names; null when it knows none or is unreachable. */
  readonly master: string | null;
  readonly error?: string;
}

export interface SentinelProbeTarget {
  readonly sentinels: ReadonlyArray<{ readonly host: string; readonly port: number }>;
  readonly masterName: string;
  readonly sentinelPassword?: string;
  readonly timeoutMs: number;
}

async function askOne(host: string, port: number, t: SentinelProbeTarget): Promise<SentinelView> {
  const address = hostPort(host, port);
  try {
    return await withProbeConnection(
      { host, port, ...(t.sentinelPassword ? { password: t.sentinelPassword } : {}) },
      t.timeoutMs,
      async (conn) => {
        const reply = (await conn.call('SENTINEL', 'get-master-addr-by-name', t.masterName)) as [string, string] | null;
        return { address, reachable: true, master: reply === null ? null : hostPort(reply[0], Number(reply[1])) };
      },
    );
  } catch (e) {
    return { address, reachable: false, master: null, error: e instanceof Error ? e.message : String(e) };
  }
}

export function probeSentinels(t: SentinelProbeTarget): Promise<SentinelView[]> {
  return Promise.all(t.sentinels.map((s) => askOne(s.host, s.port, t)));
}
