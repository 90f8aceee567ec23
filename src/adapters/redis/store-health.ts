/**
 * StoreHealth of the Redis stores: PING with a timeout, the topology mode, in Sentinel mode
 * (when asked) what each Sentinel says about the master, in cluster mode the cluster_state of
 * every master (and, when asked, each node), and closing the client they share.
 */
import type { Cluster } from 'ioredis';
import { probeCluster } from './cluster-probe';
import { isCluster, type RedisClient } from './redis-client';
import type { StoreHealth } from '../../application/ports/store-health';
import { probeSentinels, type SentinelProbeTarget, type SentinelView } from './sentinel-probe';
import { withTimeout } from './probe-connection';

export interface RedisStoreHealthOptions {
  /** ping() reports down after this many ms even if the client has no command timeout. Default 2000. */
  readonly pingTimeoutMs?: number;
  /** Reported in the details. Default standalone. */
  readonly mode?: 'standalone' | 'sentinel' | 'cluster';
  /** Sentinel mode: ask each Sentinel on every ping and report its reachability and master (dev detail). */
  readonly probeSentinels?: SentinelProbeTarget;
  /** Cluster mode: list every node (address, role, reachable, a master's slots) in the details (dev detail). */
  readonly clusterNodes?: boolean;
}

type PingResult = Awaited<ReturnType<StoreHealth['ping']>>;

export class RedisStoreHealth implements StoreHealth {
  private readonly pingTimeoutMs: number;

  constructor(
    private readonly client: RedisClient,
    private readonly opts: RedisStoreHealthOptions = {},
  ) {
    this.pingTimeoutMs = opts.pingTimeoutMs ?? 2000;
  }

  /** PING with its latency; never throws: a failure or timeout reports `up: false` with the reason. */
  async ping(): Promise<PingResult> {
    if (isCluster(this.client)) return this.pingCluster(this.client);
    const target = this.opts.probeSentinels;
    const [pong, views] = await Promise.all([this.pingClient(), target ? probeSentinels(target) : Promise.resolve(undefined)]);
    const mode = this.opts.mode ?? 'standalone';
    if (views === undefined) return { ...pong, details: { mode } };
    const master = { address: this.connectedTo(), reachable: pong.up };
    // Sentinels that answer and all name no master: nothing to fail over to, whatever the client still holds.
    const noMaster = views.some((v) => v.reachable) && views.every((v: SentinelView) => v.master === null);
    return {
      ...pong,
      up: pong.up && !noMaster,
      ...(noMaster ? { detail: 'no Sentinel knows a master' } : {}),
      details: { mode, master, sentinels: views },
    };
  }

  /**
   * PING through the cluster client, and CLUSTER INFO on every node it holds: DOWN when a
   * reachable master says cluster_state:fail (a slot has no master) or no master answers.
   */
  private async pingCluster(client: Cluster): Promise<PingResult> {
    const [pong, view] = await Promise.all([
      this.pingClient(),
      probeCluster(client, { timeoutMs: this.pingTimeoutMs, nodes: this.opts.clusterNodes === true }),
    ]);
    const problem =
      view.state === 'fail' ? `cluster_state:fail on ${view.failingOn}` : view.state === null ? 'no cluster master answers' : undefined;
    return {
      ...pong,
      up: pong.up && problem === undefined,
      ...(pong.up && problem !== undefined ? { detail: problem } : {}),
      details: { mode: 'cluster', clusterState: view.state, ...(view.nodes ? { nodes: view.nodes } : {}) },
    };
  }

  /** host:port the client is connected to (the master, in Sentinel mode); null while not connected. */
  private connectedTo(): string | null {
    if (isCluster(this.client)) return null;
    const s =
      this.client.status === 'ready' ? (this.client.stream as { remoteAddress?: string; remotePort?: number } | undefined) : undefined;
    return s?.remoteAddress === undefined ? null : `${s.remoteAddress}:${s.remotePort}`;
  }

  private async pingClient(): Promise<PingResult> {
    const start = performance.now();
    try {
      await withTimeout(this.client.ping(), this.pingTimeoutMs, `ping timed out after ${this.pingTimeoutMs} ms`);
      return { up: true, latencyMs: Math.round((performance.now() - start) * 100) / 100 };
    } catch (e) {
      return { up: false, latencyMs: Math.round(performance.now() - start), detail: e instanceof Error ? e.message : String(e) };
    }
  }

  /**
   * Closes the shared client (QUIT, or a hard disconnect if QUIT cannot be sent), which ends
   * every store on it. Safe to call twice.
   */
  async close(): Promise<void> {
    if (this.client.status === 'end') return;
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}
