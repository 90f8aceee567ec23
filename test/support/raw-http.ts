/**
 * A bare HTTP/1.1 keep-alive connection for timing-sensitive tests: a request is written as
 * prepared bytes, and `onFirstByte` runs the moment the first byte of the response arrives, so a
 * test can send its next request (to another server) with no client overhead in between.
 * Responses must carry Content-Length (Koa's JSON answers do).
 */
import net from 'node:net';

export interface RawResponse {
  readonly status: number;
  readonly body: string;
}

export class RawHttpConnection {
  private buffer = Buffer.alloc(0);
  private waiting: { resolve(r: RawResponse): void; reject(e: Error): void; onFirstByte?: () => void } | null = null;

  private constructor(private readonly socket: net.Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (e) => this.fail(e));
    socket.on('close', () => this.fail(new Error('connection closed')));
  }

  static open(port: number): Promise<RawHttpConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(new RawHttpConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** The bytes of a request (keep-alive); `body` is sent as JSON. */
  static prepare(method: string, path: string, headers: Record<string, string>, body?: object): Buffer {
    const payload = body === undefined ? '' : JSON.stringify(body);
    const lines = [
      `${method} ${path} HTTP/1.1`,
      'Host: 127.0.0.1',
      'Connection: keep-alive',
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    if (body !== undefined) lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(payload)}`);
    return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${payload}`);
  }

  send(request: Buffer, onFirstByte?: () => void): Promise<RawResponse> {
    if (this.waiting !== null) return Promise.reject(new Error('one request at a time'));
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject, ...(onFirstByte ? { onFirstByte } : {}) };
      this.socket.write(request);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    const w = this.waiting;
    if (w?.onFirstByte !== undefined) {
      const first = w.onFirstByte;
      delete w.onFirstByte;
      first();
    }
    this.buffer = Buffer.concat([this.buffer, chunk]);
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0 || w === null) return;
    const head = this.buffer.subarray(0, end).toString('latin1');
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? NaN);
    if (!Number.isFinite(length)) return this.fail(new Error(`no Content-Length in ${head.split('\r\n')[0]}`));
    if (this.buffer.length < end + 4 + length) return;
    const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    this.buffer = this.buffer.subarray(end + 4 + length);
    this.waiting = null;
    w.resolve({ status: Number(head.split(' ')[1]), body });
  }

  private fail(e: Error): void {
    const w = this.waiting;
    this.waiting = null;
    w?.reject(e);
  }
}
