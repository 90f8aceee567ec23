/** Webhook requests with Node's fetch: POST, no redirects followed (an endpoint answers itself), a timeout. */
import type { WebhookTransport } from '../../application/ports/webhook-transport';

export class FetchWebhookTransport implements WebhookTransport {
  async post(url: string, headers: Readonly<Record<string, string>>, body: string, timeoutMs: number): Promise<number> {
    const res = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel().catch(() => undefined); // the answer's body is not read
    return res.status;
  }
}
