import assert from 'node:assert/strict';
import request from 'supertest';
import { REASONS } from '../../src/domain/errors';
import { ERROR_CATALOGUE } from '../../src/adapters/koa/error-catalogue';
import { escapeHtml } from '../../src/adapters/koa/routes/problem-routes';
import { buildWebApp } from '../../src/main/web';
import { testConfig, testInfra, type TestInfra } from '../support/apps';
import type Koa from 'koa';

describe('web problem types resolve to HTML pages', function () {
  let infra: TestInfra;
  let web: Koa;
  before(() => {
    const config = testConfig();
    infra = testInfra(config, { label: 'web-problems' });
    web = buildWebApp(config, infra).app;
  });
  after(async () => infra?.dispose());

  it('every catalogue reason has a page with its title, status, what happened and what to do', async () => {
    for (const reason of REASONS) {
      const res = await request(web.callback()).get(`/problems/${reason}`).expect(200);
      assert.match(res.headers['content-type'] ?? '', /^text\/html; charset=utf-8/);
      const entry = ERROR_CATALOGUE[reason];
      assert.ok(res.text.includes(`<title>${escapeHtml(entry.title)}</title>`), reason);
      assert.ok(res.text.includes(`<code>${entry.status}</code>`), reason);
      assert.match(res.text, /<h2>What happened<\/h2>\s*<p>[^<]{10,}<\/p>/);
      assert.match(res.text, /<h2>What to do<\/h2>\s*<p>[^<]{5,}<\/p>/);
      assert.ok(!/<script/i.test(res.text));
    }
  });

  it("an error's type URI is served by the web app itself", async () => {
    const res = await request(web.callback()).get('/user/profile').expect(401);
    const type = new URL(JSON.parse(res.text).type as string);
    assert.equal(type.origin, 'http://localhost:8081');
    const page = await request(web.callback()).get(type.pathname).expect(200);
    assert.ok(page.text.includes('Authentication is required'));
  });

  it('unknown reasons are a 404 problem, and nothing from the path reaches a page', async () => {
    for (const p of [
      '/problems/nope',
      '/problems/__proto__',
      '/problems/constructor',
      `/problems/${encodeURIComponent('<script>alert(1)</script>')}`,
    ]) {
      const res = await request(web.callback()).get(p).expect(404);
      assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
      const body = JSON.parse(res.text) as Record<string, unknown>;
      assert.equal(body.type, 'http://localhost:8081/problems/not-found');
      assert.equal(body.status, 404);
      assert.ok(!res.text.includes('<script>'));
    }
  });

  it('escapeHtml escapes the five HTML-special characters', () => {
    assert.equal(escapeHtml(`<a href="x" title='y'>&</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});
