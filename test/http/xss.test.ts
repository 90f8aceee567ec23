/** The input filter on both real apps (the filter is pure edge logic: the memory store is enough). */
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import request from 'supertest';
import { escapeHeaderText, escapeQueryText, xssFilter } from '../../src/adapters/koa/xss-filter';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';

const APP = 'p<artner>&co';
const SECRET = 'xss-test-secret-0123456789abcdef';

describe('XSS input filter', () => {
  let infra: TestInfra;
  let apps: ReturnType<typeof buildBoth>;
  before(() => {
    const config = testConfig({ 'svc.security.sign.apps': { [APP]: SECRET } });
    infra = testInfra(config, { label: 'xss' });
    apps = buildBoth(config, infra);
  });
  after(async () => infra?.dispose());

  for (const which of ['web', 'admin'] as const) {
    const data = (res: request.Response) =>
      (which === 'admin' ? res.body.data : res.body) as { query: Record<string, unknown>; echo: string | null };
    const echo = () => request(apps[which].app.callback()).get('/examples/echo');

    describe(`${which} app`, () => {
      it('?q=<script>alert(1)</script> reaches the handler escaped, and so does a header', async () => {
        const res = await echo().query('q=<script>alert(1)</script>').set('X-Echo', '<img src=x onerror=alert(1)>').expect(200);
        assert.deepEqual(data(res).query, { q: '&lt;script&gt;alert(1)&lt;/script&gt;' });
        assert.equal(data(res).echo, '&lt;img src=x onerror=alert(1)&gt;');
      });

      it('escapes &, quotes in query values (and names); header quotes are kept', async () => {
        const res = await echo()
          .query({ 'a"b': `Tom & "Jerry's"`, list: ['<a>', 'plain'] })
          .set('X-Echo', 'W/"etag" & <x>')
          .expect(200);
        assert.deepEqual(data(res).query, { 'a&quot;b': 'Tom &amp; &quot;Jerry&#39;s&quot;', list: ['&lt;a&gt;', 'plain'] });
        assert.equal(data(res).echo, 'W/"etag" &amp; &lt;x&gt;');
      });

      it('values without special characters stay byte-identical', async () => {
        const res = await echo().query('q=hello%20world&n=42&u=caf%C3%A9&e=').set('X-Echo', 'plain value; q=0.5, "quoted"').expect(200);
        assert.deepEqual(data(res).query, { q: 'hello world', n: '42', u: 'café', e: '' });
        assert.equal(data(res).echo, 'plain value; q=0.5, "quoted"');
      });

      it(
        'a GET declaring multipart/form-data with an empty chunked body is filtered (<script> in ' +
          'the query, <img onerror> in a header)',
        async () => {
          const res = await echo()
            .query('q=<script>alert(1)</script>')
            .set('X-Echo', '<img src=x onerror=alert(1)>')
            .set('Content-Type', 'multipart/form-data; boundary=xyz')
            .set('Transfer-Encoding', 'chunked')
            .expect(200);
          assert.deepEqual(data(res).query, { q: '&lt;script&gt;alert(1)&lt;/script&gt;' });
          assert.equal(data(res).echo, '&lt;img src=x onerror=alert(1)&gt;');
        },
      );

      it('a GET with a multipart body of its own is filtered too: only POST, PUT and PATCH carry content', async () => {
        const res = await echo()
          .query('q=<b>x</b>')
          .set('X-Echo', '<i>')
          .set('Content-Type', 'multipart/form-data; boundary=xyz')
          .send('--xyz--')
          .expect(200);
        assert.deepEqual(data(res).query, { q: '&lt;b&gt;x&lt;/b&gt;' });
        assert.equal(data(res).echo, '&lt;i&gt;');
      });

      it('naming a skipped content type without sending a body does not switch the filter off', async () => {
        const res = await echo().query('q=<script>x</script>').set('X-Echo', '<i>').set('Content-Type', 'image/png').expect(200);
        assert.deepEqual(data(res).query, { q: '&lt;script&gt;x&lt;/script&gt;' });
        assert.equal(data(res).echo, '&lt;i&gt;');
      });

      it('a JSON body containing <b> reaches the handler unchanged; signing headers keep their exact bytes', async () => {
        const body = '{"html":"<b>bold</b> & \'q\'"}';
        const ts = String(Date.now());
        const nonce = randomBytes(10).toString('hex');
        const sign = createHmac('sha256', SECRET)
          .update(APP + ts + nonce + body)
          .digest('hex');
        const res = await request(apps[which].app.callback())
          .post('/open/echo?x=%3Cy%3E')
          .set({ 'Content-Type': 'application/json', 'X-App-Key': APP, 'X-Timestamp': ts, 'X-Nonce': nonce, 'X-Sign': sign })
          .send(body)
          .expect(200);
        const d = which === 'admin' ? res.body.data : res.body;
        assert.deepEqual(d, { appKey: APP, body: { html: "<b>bold</b> & 'q'" } });
      });
    });
  }

  it('paths listed in svc.xss.exclude-paths are not filtered; svc.xss.enabled=false turns it off', async () => {
    for (const overrides of [
      { 'svc.xss.exclude-paths': '/examples/**' },
      { 'svc.xss.exclude-paths': ['/other', '/examples/echo'] },
      { 'svc.xss.enabled': false },
    ]) {
      const config = testConfig(overrides);
      const local = testInfra(config, { label: 'xss-off' });
      try {
        const res = await request(buildBoth(config, local).web.app.callback()).get('/examples/echo?q=<b>').set('X-Echo', '<i>').expect(200);
        assert.deepEqual(res.body, { query: { q: '<b>' }, echo: '<i>' }, JSON.stringify(overrides));
      } finally {
        await local.dispose();
      }
    }
    assert.throws(() => testConfig({ 'svc.xss.exclude-paths': 'no-slash' }), /svc\.xss\.exclude-paths/);
  });

  describe('the content-type exemption (POST, PUT or PATCH with a non-empty body only)', () => {
    // The apps' routes read JSON bodies only, so the exemption is shown on the filter itself,
    // with a handler that echoes what it saw and the body it read.
    const probe = new Koa();
    probe.use(xssFilter({ enabled: true, excludePaths: [], exemptHeaders: [] }));
    probe.use(async (ctx) => {
      const chunks: Buffer[] = [];
      for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
      ctx.body = { query: ctx.query, echo: ctx.get('X-Echo'), body: Buffer.concat(chunks).toString('utf8') };
    });
    const call = (method: 'post' | 'put' | 'patch' | 'get' | 'delete') =>
      request(probe.callback())[method]('/upload').query('q=<b>x</b>').set('X-Echo', '<i>');

    for (const type of ['multipart/form-data; boundary=xyz', 'application/octet-stream', 'application/pdf', 'image/png']) {
      it(`a ${type.split(';')[0]} request is not filtered`, async () => {
        for (const method of ['post', 'put', 'patch'] as const) {
          const res = await call(method).set('Content-Type', type).send('--xyz--').expect(200);
          assert.deepEqual(res.body.query, { q: '<b>x</b>' }, method);
          assert.equal(res.body.echo, '<i>');
          assert.equal(res.body.body, '--xyz--');
        }
      });
    }

    it('a chunked POST counts once its first byte arrives, and its body reaches the handler whole', async () => {
      const server = http.createServer(probe.callback()).listen(0, '127.0.0.1');
      await once(server, 'listening');
      try {
        const req = http.request({
          port: (server.address() as AddressInfo).port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/upload?q=%3Cb%3Ex%3C%2Fb%3E',
        });
        req.setHeader('Content-Type', 'application/octet-stream');
        req.setHeader('X-Echo', '<i>');
        req.write('--xyz');
        setTimeout(() => req.end('--'), 50); // the filter decides on the first chunk, before the last one is sent
        const [res] = (await once(req, 'response')) as [http.IncomingMessage];
        assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
        let text = '';
        for await (const chunk of res) text += String(chunk);
        assert.deepEqual(JSON.parse(text), { query: { q: '<b>x</b>' }, echo: '<i>', body: '--xyz--' });
      } finally {
        server.close();
      }
    });

    it('an empty POST (Content-Length: 0 or an empty chunked body), a GET or a DELETE with a body is filtered', async () => {
      const cases = [
        call('post').set('Content-Type', 'multipart/form-data; boundary=xyz'),
        call('post').set('Content-Type', 'multipart/form-data; boundary=xyz').set('Transfer-Encoding', 'chunked'),
        call('get').set('Content-Type', 'multipart/form-data; boundary=xyz').set('Transfer-Encoding', 'chunked'),
        call('get').set('Content-Type', 'image/png').send('png'),
        call('delete').set('Content-Type', 'application/octet-stream').send('bytes'),
      ];
      for (const [i, pending] of cases.entries()) {
        const res = await pending.expect(200);
        assert.deepEqual(res.body.query, { q: '&lt;b&gt;x&lt;/b&gt;' }, `case ${i}`);
        assert.equal(res.body.echo, '&lt;i&gt;', `case ${i}`);
      }
    });
  });

  it('exempt headers (credentials, signing, idempotency, cookies) are never rewritten; others are, in ctx.headers too', async () => {
    const app = new Koa();
    app.use(xssFilter({ enabled: true, excludePaths: [], exemptHeaders: ['Authorization', 'Cookie', 'X-Sign', 'Idempotency-Key'] }));
    app.use((ctx) => {
      ctx.body = { headers: ctx.headers, get: ctx.get('X-Other'), query: ctx.query, url: ctx.url };
    });
    const res = await request(app.callback())
      .get('/p?k=<v>')
      .set({ Authorization: 'Bearer <t>&', Cookie: 'a=<b>', 'X-Sign': '<s>', 'Idempotency-Key': '"<k>"', 'X-Other': '<o>' })
      .expect(200);
    assert.equal(res.body.headers.authorization, 'Bearer <t>&');
    assert.equal(res.body.headers.cookie, 'a=<b>');
    assert.equal(res.body.headers['x-sign'], '<s>');
    assert.equal(res.body.headers['idempotency-key'], '"<k>"');
    assert.equal(res.body.headers['x-other'], '&lt;o&gt;');
    assert.equal(res.body.get, '&lt;o&gt;');
    assert.deepEqual(res.body.query, { k: '&lt;v&gt;' });
    assert.ok(!String(res.body.url).includes('<'), 'ctx.url agrees with the filtered query');
  });

  it('escape functions leave plain text identical and are reversible', () => {
    const plain = 'abc 123 ü/?=;,"\'';
    assert.equal(escapeHeaderText(plain), plain);
    assert.equal(escapeQueryText('abc 123 ü/?=;,'), 'abc 123 ü/?=;,');
    const unescape = (s: string) =>
      s.replace(
        /&lt;|&gt;|&quot;|&#39;|&amp;/g,
        (m) => ({ '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&amp;': '&' })[m] as string,
      );
    for (const s of ['<a href="x">&amp;</a>', "it's & <b>", '&lt;']) assert.equal(unescape(escapeQueryText(s)), s);
  });
});
