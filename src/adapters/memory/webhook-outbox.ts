/** WebhookOutbox in process: one queue per endpoint (the lease only matters between instances, which memory never has). */
import type { Clock } from '../../application/ports/clock';
import type { PendingDelivery, WebhookOutbox } from '../../application/ports/webhook-outbox';

interface Queue {
  readonly items: Array<{ readonly id: string; readonly body: string }>;
  attempts: number;
  notBefore: number;
  owner: string | null;
  leaseUntil: number;
  /** Batch ids taken, newest last (a bounded memory of retries to recognise). */
  readonly batches: string[];
}

const REMEMBERED_BATCHES = 1000;

export class InMemoryWebhookOutbox implements WebhookOutbox {
  private readonly queues = new Map<string, Queue>();

  constructor(private readonly clock: Clock) {}

  private queue(endpoint: string): Queue {
    let q = this.queues.get(endpoint);
    if (q === undefined) {
      q = { items: [], attempts: 0, notBefore: 0, owner: null, leaseUntil: 0, batches: [] };
      this.queues.set(endpoint, q);
    }
    return q;
  }

  async enqueue(
    endpoint: string,
    batchId: string,
    messages: ReadonlyArray<{ id: string; body: string }>,
    maxPending: number,
  ): Promise<number> {
    const q = this.queue(endpoint);
    if (q.batches.includes(batchId)) return messages.length;
    q.batches.push(batchId);
    if (q.batches.length > REMEMBERED_BATCHES) q.batches.shift();
    const taken = messages.slice(0, Math.max(0, maxPending - q.items.length));
    q.items.push(...taken);
    return taken.length;
  }

  async head(endpoint: string): Promise<PendingDelivery | null> {
    const q = this.queues.get(endpoint);
    const first = q?.items[0];
    if (q === undefined || first === undefined) return null;
    return { id: first.id, body: first.body, attempts: q.attempts, notBefore: q.notBefore };
  }

  async ack(endpoint: string, id: string): Promise<void> {
    const q = this.queues.get(endpoint);
    if (q?.items[0]?.id !== id) return;
    q.items.shift();
    q.attempts = 0;
    q.notBefore = 0;
  }

  async defer(endpoint: string, id: string, attempts: number, notBefore: number): Promise<void> {
    const q = this.queues.get(endpoint);
    if (q?.items[0]?.id !== id) return;
    q.attempts = attempts;
    q.notBefore = notBefore;
  }

  async lease(endpoint: string, owner: string, ttlMs: number): Promise<boolean> {
    const q = this.queue(endpoint);
    const now = this.clock.now();
    if (q.owner !== null && q.owner !== owner && q.leaseUntil > now) return false;
    q.owner = owner;
    q.leaseUntil = now + ttlMs;
    return true;
  }

  async release(endpoint: string, owner: string): Promise<void> {
    const q = this.queues.get(endpoint);
    if (q?.owner === owner) q.owner = null;
  }
}
