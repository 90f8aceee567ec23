/** Sends one webhook request (POST, JSON) and tells its HTTP status; rejects when no answer came (refused, timed out). */
export interface WebhookTransport {
  post(url: string, headers: Readonly<Record<string, string>>, body: string, timeoutMs: number): Promise<number>;
}
