/** The edge starts the requests read in one turn of the event loop together (CheckPhaseStart). */
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { EnvelopeResponder } from '../../src/adapters/koa/responders';
import { requestContext } from '../../src/adapters/koa/middleware';
import type { AppContext } from '../../src/adapters/koa/state';
import { edgeApp } from '../support/edge-app';

function fakeContext(): AppContext {
  const headers: Record<string, string> = {};
  return {
    state: {},
    req: { socket: { remoteAddress: '127.0.0.1' }, headers: {} },
    get: () => '',
    set: (name: string, value: string) => void (headers[name] = value),
  } as unknown as AppContext;
}

describe('requestContext: requests of one loop turn start together', () => {
  it('runs the rest of the chain in the check phase, one step at a time across the requests', async () => {
    const mw = requestContext({ responder: new EnvelopeResponder(), trustedProxies: { contains: () => false }, realm: 'admin' });
    const order: string[] = [];
    setImmediate(() => order.push('immediate queued first'));
    const chain = (name: string) => async () => {
      order.push(`${name} next`);
      await null;
      order.push(`${name} after one step`);
    };
    await Promise.all([mw(fakeContext(), chain('a')), mw(fakeContext(), chain('b'))]);
    assert.deepEqual(order, ['immediate queued first', 'a next', 'b next', 'a after one step', 'b after one step']);
  });
});

/**
 * What the local session cache relies on (hitOrdering 'caller', cached-session-store.ts): data that
 * reached another socket before a request did (an invalidation on the tracking connection) has been
 * handled when anything after requestContext runs. Real sockets: the request and then one byte on a
 * side connection are written while this process's event loop is blocked, so one poll of the loop
 * reports both, the request first; the request event itself still sees the side byte unhandled.
 */
describe('requestContext on real sockets: the chain runs after the I/O of the turn that read the request', () => {
  it('a middleware after requestContext sees a side-channel byte that arrived just after the request', async () => {
    let arrived = false;
    const side = net.createServer((sock) => sock.on('data', () => void (arrived = true)));
    const seenByChain: boolean[] = [];
    const seenAtRead: boolean[] = [];
    const app = edgeApp(async (ctx) => {
      seenByChain.push(arrived);
      ctx.body = { ok: true };
    });
    const koa = app.callback();
    const server = http.createServer((req, res) => {
      seenAtRead.push(arrived);
      void koa(req, res);
    });
    const listen = (s: net.Server) =>
      new Promise<number>((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as net.AddressInfo).port)));
    const [httpPort, sidePort] = [await listen(server), await listen(side)];
    const connect = (port: number) =>
      new Promise<net.Socket>((resolve) => {
        const s = net.connect(port, '127.0.0.1', () => resolve(s));
      });
    try {
      for (let trial = 0; trial < 20; trial++) {
        arrived = false;
        const [h, s] = [await connect(httpPort), await connect(sidePort)];
        await new Promise((r) => setTimeout(r, 5)); // both accepted
        const answered = new Promise<void>((resolve) => h.on('data', () => resolve()));
        h.write('GET /x HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n');
        s.write('x');
        const until = Date.now() + 5;
        while (Date.now() < until); // both land in the kernel before the loop polls again
        await answered;
        h.destroy();
        s.destroy();
      }
    } finally {
      server.close();
      side.close();
    }
    assert.equal(seenByChain.length, 20);
    assert.ok(
      seenAtRead.some((v) => !v),
      'in some trial the request was handled before the side byte (else this test shows nothing)',
    );
    assert.deepEqual(
      seenByChain,
      seenByChain.map(() => true),
      'the chain after requestContext always saw the side byte',
    );
  });
});
