/** The edge starts the requests read in one turn of the event loop together (TurnBatch). */
import assert from 'node:assert/strict';
import { EnvelopeResponder } from '../../src/adapters/koa/responders';
import { requestContext } from '../../src/adapters/koa/middleware';
import type { AppContext } from '../../src/adapters/koa/state';

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
