/**
 * The pending webhook deliveries of each endpoint, in the store, so that they survive a restart
 * and several instances share them (docs/audit.md#webhooks). One queue per endpoint, delivered in
 * order from its head; the head's attempts and when it may next be tried are kept beside it; a
 * lease names the one instance that delivers an endpoint's queue at a time.
 */
export interface PendingDelivery {
  /** The message id (`webhook-id`: the event's id). */
  readonly id: string;
  /** The JSON body, as it is sent. */
  readonly body: string;
  /** Failed attempts so far. */
  readonly attempts: number;
  /** Not to be tried before (ms since epoch; 0: now). */
  readonly notBefore: number;
}

export interface WebhookOutbox {
  /**
   * Appends messages to an endpoint's queue, up to `maxPending` held; returns how many were taken
   * (the rest are dropped). A batch enqueued again under the same `batchId` (a retry after a lost
   * answer) is taken once: the call answers its length and queues nothing.
   */
  enqueue(
    endpoint: string,
    batchId: string,
    messages: ReadonlyArray<{ readonly id: string; readonly body: string }>,
    maxPending: number,
  ): Promise<number>;
  /** The queue's head, or null when it is empty. */
  head(endpoint: string): Promise<PendingDelivery | null>;
  /** Removes the head if it is message `id` (delivered, or given up on). */
  ack(endpoint: string, id: string): Promise<void>;
  /** Records a failed attempt of the head `id`: its attempts and the time of its next try. */
  defer(endpoint: string, id: string, attempts: number, notBefore: number): Promise<void>;
  /** Takes or renews the endpoint's lease for `owner` (ttlMs); false while another owner holds it. */
  lease(endpoint: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up, if `owner` holds it. */
  release(endpoint: string, owner: string): Promise<void>;
}
