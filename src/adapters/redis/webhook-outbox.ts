/**
 * WebhookOutbox on Redis (key-layout.ts, all of an endpoint's keys in one slot): the queue is a
 * list of `<id>|<body>` entries, the head's attempts and next try a hash, the delivery lease a
 * string with a TTL. Each operation is one script.
 */
import type { PendingDelivery, WebhookOutbox } from '../../application/ports/webhook-outbox';
import type { KeyLayoutKind } from './key-layout';
import type { LuaScript } from './lua-scripts';
import type { RedisClient } from './redis-client';
import { ScriptedRedisStore } from './scripted-store';

const SCRIPTS = {
  agWebhookEnqueue: { file: 'webhook-enqueue.lua', keys: 2 },
  agWebhookHead: { file: 'webhook-head.lua', keys: 2 },
  agWebhookSettle: { file: 'webhook-settle.lua', keys: 2 },
  agWebhookLease: { file: 'webhook-lease.lua', keys: 1 },
} satisfies Record<string, LuaScript>;

export class RedisWebhookOutbox extends ScriptedRedisStore<keyof typeof SCRIPTS> implements WebhookOutbox {
  constructor(client: RedisClient, keyPrefix: string, layout?: KeyLayoutKind) {
    super(client, keyPrefix, SCRIPTS, layout);
  }

  async enqueue(
    endpoint: string,
    batchId: string,
    messages: ReadonlyArray<{ id: string; body: string }>,
    maxPending: number,
  ): Promise<number> {
    const entries = messages.map((m) => `${m.id}|${m.body}`);
    const recent = this.keys.webhook(endpoint, 'batches');
    return Number(await this.run('agWebhookEnqueue', this.keys.webhook(endpoint, 'q'), recent, maxPending, batchId, ...entries));
  }

  async head(endpoint: string): Promise<PendingDelivery | null> {
    const r = (await this.run('agWebhookHead', this.keys.webhook(endpoint, 'q'), this.keys.webhook(endpoint, 's'))) as
      [string, string, string] | null;
    if (r === null) return null;
    const bar = r[0].indexOf('|');
    return { id: r[0].slice(0, bar), body: r[0].slice(bar + 1), attempts: Number(r[1]), notBefore: Number(r[2]) };
  }

  async ack(endpoint: string, id: string): Promise<void> {
    await this.run('agWebhookSettle', this.keys.webhook(endpoint, 'q'), this.keys.webhook(endpoint, 's'), id, 'ack', 0, 0);
  }

  async defer(endpoint: string, id: string, attempts: number, notBefore: number): Promise<void> {
    await this.run('agWebhookSettle', this.keys.webhook(endpoint, 'q'), this.keys.webhook(endpoint, 's'), id, 'defer', attempts, notBefore);
  }

  async lease(endpoint: string, owner: string, ttlMs: number): Promise<boolean> {
    return Number(await this.run('agWebhookLease', this.keys.webhook(endpoint, 'lease'), owner, Math.max(1, Math.floor(ttlMs)))) === 1;
  }

  async release(endpoint: string, owner: string): Promise<void> {
    await this.run('agWebhookLease', this.keys.webhook(endpoint, 'lease'), owner, 0);
  }
}
