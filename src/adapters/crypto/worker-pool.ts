/**
 * A fixed pool of worker threads for CPU-heavy crypto (BCrypt, PKCS#1 v1.5 RSA), so a burst of
 * logins does not stall other requests. Tasks queue FIFO; a crashed worker is replaced and its
 * task fails (the caller treats that like any other failed check).
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { DomainError } from '../../domain/errors';

export type CryptoTask =
  | { op: 'hash'; password: string; cost: number }
  | { op: 'verify'; password: string; hash: string }
  | { op: 'rsa-pkcs1'; keyPem: string; ciphertext: string };

interface Pending {
  readonly id: number;
  readonly task: CryptoTask;
  resolve(v: unknown): void;
  reject(e: Error): void;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
}

export const WORKER_FILE = path.join(__dirname, 'crypto-worker.js');

export class CryptoWorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  /** Tasks allowed to wait; beyond that the pool answers "busy" at once instead of queueing without bound. */
  readonly maxQueue: number;

  constructor(
    size = 0,
    private readonly file = WORKER_FILE,
    maxQueuePerWorker = 32,
  ) {
    const n = size > 0 ? size : availableParallelism();
    for (let i = 0; i < n; i++) this.slots.push(this.spawn());
    this.maxQueue = n * maxQueuePerWorker;
  }

  get size(): number {
    return this.slots.length;
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(this.file), busy: null };
    slot.worker.unref(); // never keeps the process alive on its own
    slot.worker.on('message', (msg: { id: number; ok: boolean; result?: unknown; error?: string }) => {
      const p = slot.busy;
      slot.busy = null;
      if (p !== null && p.id === msg.id) {
        if (msg.ok) p.resolve(msg.result);
        else p.reject(new Error(msg.error ?? 'crypto worker failed'));
      }
      this.pump();
    });
    const onDeath = (err: Error): void => {
      const p = slot.busy;
      slot.busy = null;
      p?.reject(err);
      if (this.closed) return;
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots[i] = this.spawn();
      this.pump();
    };
    slot.worker.on('error', onDeath);
    slot.worker.on('exit', (code) => {
      if (!this.closed && slot.busy !== null) onDeath(new Error(`crypto worker exited with ${code}`));
    });
    return slot;
  }

  run<T>(task: CryptoTask): Promise<T> {
    if (this.closed) return Promise.reject(new Error('crypto pool is closed'));
    if (this.queue.length >= this.maxQueue) {
      // ~1-2 s of work already waits: shed load (503 + Retry-After) rather than let latency and memory grow.
      return Promise.reject(
        new DomainError('server-busy', 'The server is busy checking passwords; retry shortly.', { retryAfterSeconds: 2 }),
      );
    }
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, task, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.busy !== null) continue;
      const next = this.queue.shift();
      if (next === undefined) return;
      slot.busy = next;
      slot.worker.postMessage({ id: next.id, ...next.task });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(new Error('crypto pool is closed'));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
