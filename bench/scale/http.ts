/**
 * The bench's HTTP client (keep-alive, loopback, in this process), the event-loop delay monitor,
 * and the logins the bench performs as a client would (the admin app's RSA-encrypted password,
 * the web app's plain JSON).
 */
import { constants, publicEncrypt } from 'node:crypto';
import http from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

export interface Answer {
  readonly status: number;
  readonly ms: number;
  readonly bytes: number;
  readonly body: Buffer;
}

export interface RequestOptions {
  readonly token?: string;
  readonly json?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export class Client {
  private readonly agent: http.Agent;
  private publicKey: Promise<string> | undefined;

  constructor(
    readonly port: number,
    sockets = 1,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  }

  request(method: string, path: string, o: RequestOptions = {}): Promise<Answer> {
    const payload = o.json === undefined ? undefined : Buffer.from(JSON.stringify(o.json));
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token !== undefined) headers.authorization = `Bearer ${o.token}`;
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: this.port, method, path, agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, bytes: body.length, body });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** The request, which must answer `status`; its body parsed as JSON (the admin app's `data` unwrapped). */
  async expect(status: number, method: string, path: string, o: RequestOptions = {}): Promise<{ answer: Answer; body: unknown }> {
    const answer = await this.request(method, path, o);
    if (answer.status !== status)
      throw new Error(`${method} ${path}: HTTP ${answer.status}, expected ${status}: ${answer.body.toString().slice(0, 300)}`);
    const text = answer.body.toString();
    const parsed = text === '' ? null : (JSON.parse(text) as { data?: unknown });
    return { answer, body: parsed !== null && typeof parsed === 'object' && 'data' in parsed ? parsed.data : parsed };
  }

  /**
   * POST /auth/login on the admin app (the password RSA-OAEP-encrypted with the published key), from
   * client address `ip`: the answer as it is.
   */
  async adminLoginAnswer(username: string, password: string, ip: string): Promise<Answer> {
    this.publicKey ??= this.expect(200, 'GET', '/auth/getConfig').then((r) => (r.body as { publicKey: string }).publicKey);
    const key = await this.publicKey;
    const encrypted = publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(password));
    return this.request('POST', '/auth/login', {
      json: { username, password: encrypted.toString('base64') },
      headers: { 'x-forwarded-for': ip, 'user-agent': CHROME },
    });
  }

  /** A successful admin login: its tokens. */
  async adminLogin(username: string, password: string, ip: string): Promise<Tokens> {
    const answer = await this.adminLoginAnswer(username, password, ip);
    if (answer.status !== 200)
      throw new Error(`POST /auth/login (${username}): HTTP ${answer.status}: ${answer.body.toString().slice(0, 300)}`);
    return { ...(JSON.parse(answer.body.toString()) as { data: Tokens }).data, ms: answer.ms };
  }

  /** POST /auth/login on the web app (plain JSON). */
  async webLogin(username: string, password: string, ip: string): Promise<Tokens> {
    const { body, answer } = await this.expect(200, 'POST', '/auth/login', {
      json: { username, password },
      headers: { 'x-forwarded-for': ip, 'user-agent': CHROME },
    });
    return { ...(body as Tokens), ms: answer.ms };
  }

  close(): void {
    this.agent.destroy();
  }
}

export interface Tokens {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly ms: number;
}

export const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

/** The `q` quantile (nearest rank) of `xs`. */
export function percentile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
}

/** The histogram's timer period (ms): an idle loop reads about this much. */
const RESOLUTION_MS = 2;

/**
 * The event loop's delay (perf_hooks.monitorEventLoopDelay, a timer every 2 ms): `during(fn)`
 * reports the longest interval between two of its ticks while `fn` ran (an idle loop reads ~2 ms,
 * a 100 ms stall ~100-102 ms).
 */
export class LoopDelay {
  private readonly h = monitorEventLoopDelay({ resolution: RESOLUTION_MS });

  constructor() {
    this.h.enable();
  }

  /** `fn`'s result, its wall time and the event loop's longest delay meanwhile (ms; the histogram reset first). */
  async during<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; maxDelayMs: number }> {
    this.h.reset();
    // After a reset the histogram's next tick only sets its start: let two pass before `fn` runs.
    await new Promise((r) => setTimeout(r, 3 * RESOLUTION_MS));
    const started = performance.now();
    const value = await fn();
    const ms = performance.now() - started;
    // One more sample after the end, so a stall in the last turn is in the histogram.
    await new Promise((r) => setTimeout(r, 3 * RESOLUTION_MS));
    const maxDelayMs = this.h.count === 0 ? 0 : this.h.max / 1e6;
    return { value, ms, maxDelayMs };
  }

  stop(): void {
    this.h.disable();
  }
}

export const round = (x: number, digits = 1): number => Number(x.toFixed(digits));
