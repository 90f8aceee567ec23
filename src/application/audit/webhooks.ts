/**
 * Standard Webhooks (https://www.standardwebhooks.com/): what an audit webhook endpoint is, the
 * message it receives for an event, and its signature: `webhook-signature: v1,<base64 HMAC-SHA256
 * of "<webhook-id>.<webhook-timestamp>.<body>">` under the bytes of the `whsec_` secret.
 */
import { createHash, createHmac } from 'node:crypto';
import type { SecurityEvent, SecurityEventType } from './security-event';

export interface WebhookEndpoint {
  readonly url: string;
  /** `whsec_` + base64 of the key (at least 24 bytes). */
  readonly secret: string;
  /** The event types it receives (absent: every type). */
  readonly types?: readonly SecurityEventType[];
}

/** The bytes of a `whsec_` secret; null when it is not one. */
export function webhookKey(secret: string): Buffer | null {
  if (!secret.startsWith('whsec_')) return null;
  const b64 = secret.slice('whsec_'.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return null;
  const key = Buffer.from(b64, 'base64');
  return key.length >= 24 ? key : null;
}

/** An endpoint's id in the store: a hash of its URL (no secret in a key name). */
export function endpointIdOf(url: string): string {
  return createHash('sha256').update(url).digest('hex').slice(0, 16);
}

/** The body an endpoint receives for `event`: `{type: "audit.<type>", timestamp, data: event}`. */
export function webhookBody(event: SecurityEvent): string {
  return JSON.stringify({ type: `audit.${event.type}`, timestamp: new Date(event.time).toISOString(), data: event });
}

/** The three Standard Webhooks headers of one attempt (sent at `nowMs`). */
export function webhookHeaders(key: Buffer, id: string, nowMs: number, body: string): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
