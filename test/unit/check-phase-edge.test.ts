/**
 * The local session cache answers hits at once (hitOrdering 'caller') only because requestContext,
 * the first middleware of every app, starts each request in its turn's check phase. That coupling
 * is checked when an app is assembled: an app whose first middleware is anything else turns the
 * cache to 'own-turn' and logs why (src/main/operations.ts, src/main/infrastructure.ts).
 */
import assert from 'node:assert/strict';
import Koa from 'koa';
import { createHttpApp } from '../../src/adapters/koa/http-app';
import { checkPhaseEdgeProblem } from '../../src/adapters/koa/middleware';
import { EnvelopeResponder } from '../../src/adapters/koa/responders';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import type { Logger } from '../../src/application/ports/logger';
import { buildBoth, testConfig, testInfra } from '../support/apps';
import { createInfrastructure } from '../../src/main/infrastructure';
import { requireRedis } from '../support/services';
import { parseCidrList } from '../../src/adapters/koa/client-ip';

describe('the check-phase edge the session cache relies on', () => {
  it('every app built by createHttpApp starts with it; anything else in front is named', () => {
    const app = createHttpApp({
      realm: 'admin',
      responder: new EnvelopeResponder(),
      routes: [],
      trustedProxies: parseCidrList([]),
      bodyLimitBytes: 1024,
      log: silentLogger,
    });
    assert.equal(checkPhaseEdgeProblem(app.middleware), null);
    const reordered = [async function timing() {}, ...app.middleware];
    assert.match(checkPhaseEdgeProblem(reordered) ?? '', /first middleware is "timing", not requestContext/);
    assert.match(checkPhaseEdgeProblem(new Koa().middleware) ?? '', /missing/);
  });

  it(
    'the apps as assembled keep the cache on caller ordering; a reader without the edge turns ' + 'it to own-turn, once, with a warning',
    async function () {
      await requireRedis(this);
      const warnings: { obj: unknown; msg: string }[] = [];
      const log: Logger = { ...silentLogger, warn: (obj, msg) => warnings.push({ obj, msg: msg ?? '' }) };
      const config = testConfig({ 'session.local-cache.enabled': true }, 'redis');
      const base = testInfra(config, { label: 'edgecheck' });
      await base.dispose();
      const infra = createInfrastructure(config, { log, keyPrefix: base.keyPrefix });
      try {
        buildBoth(config, infra);
        assert.deepEqual(
          warnings.filter((w) => /own-turn/.test(w.msg)),
          [],
          'both apps have the edge',
        );
        infra.sessionReaderWithoutCheckPhaseEdge?.('web app: the first middleware is "timing"');
        infra.sessionReaderWithoutCheckPhaseEdge?.('admin app: the first middleware is "timing"');
        const turned = warnings.filter((w) => /own-turn/.test(w.msg));
        assert.equal(turned.length, 1);
        assert.deepEqual(turned[0]?.obj, { why: 'web app: the first middleware is "timing"' });
      } finally {
        await infra.close();
      }
    },
  );
});
