/* eslint-disable @typescript-eslint/no-explicit-any -- the tests walk a parsed JSON document */
/**
 * The success payloads the apps really send match the schemas their documents declare: one pass
 * through the main flows of each app, every body validated (Ajv, JSON Schema 2020-12) against the
 * declared response of its operation, status and media type.
 */
import assert from 'node:assert/strict';
import { constants, publicEncrypt, randomUUID } from 'node:crypto';
import 'reflect-metadata';
import request from 'supertest';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- Ajv's 2020-12 build, CommonJS
const Ajv2020 = require('ajv/dist/2020') as typeof import('ajv/dist/2020').default;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS plugin
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;

type Doc = { paths: Record<string, Record<string, any>>; components: Record<string, unknown> };
type Res = { status: number; headers: Record<string, string>; body: unknown; text: string };

/** Validates a response against the document: the status and media type are declared, the body matches. */
function checker(doc: Doc): (method: string, path: string, res: Res) => void {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addVocabulary(['example', 'components']);
  ajv.addSchema({ $id: 'doc', components: doc.components });
  return (method, path, res) => {
    const declared = doc.paths[path]?.[method]?.responses?.[String(res.status)];
    assert.ok(declared, `${method.toUpperCase()} ${path}: ${res.status} is not declared (${String(res.text).slice(0, 200)})`);
    if (res.status === 204) return;
    const type = (res.headers['content-type'] ?? '').split(';')[0] as string;
    const media = declared.content?.[type];
    assert.ok(media, `${method.toUpperCase()} ${path} ${res.status}: ${type} is not declared`);
    const schema = JSON.parse(JSON.stringify(media.schema).replace(/"#\/components\//g, '"doc#/components/')) as object;
    const validate = ajv.compile(schema);
    const body = /[/+]json$/.test(type) ? JSON.parse(res.text) : (res.text ?? '');
    assert.ok(
      validate(body),
      `${method.toUpperCase()} ${path} ${res.status}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(body).slice(0, 400)}`,
    );
  };
}

describe('OpenAPI: what the apps send matches the declared success payloads', function () {
  this.timeout(30000);
  let infra: TestInfra;
  let apps: ReturnType<typeof buildBoth>;
  before(() => {
    const config = testConfig({ 'svc.actuator.exposure': 'health,info,prometheus' });
    infra = testInfra(config, { label: 'openapi-payloads' });
    apps = buildBoth(config, infra);
  });
  after(async () => infra?.dispose());

  it('admin: config, captcha, login, me, users, sessions, roles, notices, actuator, logout', async () => {
    const app = apps.admin.app.callback();
    const check = checker((await request(app).get('/v3/api-docs')).body as Doc);
    const get = async (path: string, doc = path, token?: string) => {
      const res = await request(app)
        .get(path)
        .set(token ? { Authorization: `Bearer ${token}` } : {});
      check('get', doc, res as unknown as Res);
      return res;
    };
    const cfg = await get('/auth/getConfig');
    await get('/auth/captchaImage');
    const password = publicEncrypt(
      { key: cfg.body.data.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from('admin123'),
    ).toString('base64');
    const login = await request(app).post('/auth/login').send({ username: 'admin', password });
    check('post', '/auth/login', login as unknown as Res);
    assert.equal(login.status, 200, login.text);
    const token = login.body.data.accessToken as string;
    const bearer = { Authorization: `Bearer ${token}` };
    await get('/auth/me', '/auth/me', token);
    const users = await get('/system/user/list?page=1&pageSize=5', '/system/user/list', token);
    await get('/monitor/online', '/monitor/online', token);
    await get('/idempotent/token', '/idempotent/token', token);
    const viewer = (users.body.data.list as Array<{ userId: string; username: string }>).find((u) => u.username === 'viewer');
    assert.ok(viewer, 'the test directory has a viewer');
    const roles = await request(app)
      .post(`/system/user/${viewer.userId}/roles`)
      .set(bearer)
      .send({ roles: ['viewer'] });
    check('post', '/system/user/{id}/roles', roles as unknown as Res);
    assert.equal(roles.status, 200, roles.text);
    const notice = await request(app)
      .post('/examples/notices')
      .set(bearer)
      .send({ title: `hello ${randomUUID()}` });
    check('post', '/examples/notices', notice as unknown as Res);
    await get('/examples/notices', '/examples/notices', token);
    await get('/examples/echo?q=1&q=2', '/examples/echo');
    for (const p of [
      '/actuator/health',
      '/actuator/health/liveness',
      '/actuator/health/readiness',
      '/actuator/info',
      '/actuator/prometheus',
    ])
      await get(p);
    for (const p of ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'index.html'])
      await get(`/swagger-ui/${p}`, '/swagger-ui/{file}');
    await get('/swagger-ui');
    const refresh = await request(app).post('/auth/refresh-token').send({ refreshToken: login.body.data.refreshToken });
    check('post', '/auth/refresh-token', refresh as unknown as Res);
    const logout = await request(app)
      .post('/auth/logout')
      .set({ Authorization: `Bearer ${refresh.body.data.accessToken}` });
    check('post', '/auth/logout', logout as unknown as Res);
    assert.equal(logout.status, 200);
  });

  it('web: register, login, profile, sessions, orders, payments, refresh, logout', async () => {
    const app = apps.web.app.callback();
    const check = checker((await request(app).get('/v3/api-docs')).body as Doc);
    const username = `m${randomUUID().slice(0, 8)}`;
    const register = await request(app).post('/auth/register').send({ username, password: 'Str0ng-passw0rd!', nickname: 'M' });
    check('post', '/auth/register', register as unknown as Res);
    assert.equal(register.status, 201, register.text);
    const login = await request(app).post('/auth/login').send({ username, password: 'Str0ng-passw0rd!' });
    check('post', '/auth/login', login as unknown as Res);
    const auth = { Authorization: `Bearer ${login.body.accessToken}` };
    const get = async (path: string, doc = path) => check('get', doc, (await request(app).get(path).set(auth)) as unknown as Res);
    await get('/user/profile');
    await get('/user/sessions');
    await get('/problems/rate-limited', '/problems/{reason}');
    const token = await request(app).get('/idempotent/token').set(auth);
    check('get', '/idempotent/token', token as unknown as Res);
    const order = await request(app)
      .post('/orders')
      .set(auth)
      .set('X-Idempotent-Token', token.body.token)
      .send({ item: 'book', quantity: 1 });
    check('post', '/orders', order as unknown as Res);
    assert.equal(order.status, 201, order.text);
    await get('/orders');
    const payment = await request(app)
      .post('/payments')
      .set(auth)
      .set('Idempotency-Key', randomUUID())
      .send({ amount: 100, currency: 'EUR' });
    check('post', '/payments', payment as unknown as Res);
    const refresh = await request(app).post('/auth/refresh-token').send({ refreshToken: login.body.refreshToken });
    check('post', '/auth/refresh-token', refresh as unknown as Res);
    const wrong = await request(app).post('/auth/login').send({ username, password: 'not-the-password' });
    check('post', '/auth/login', wrong as unknown as Res);
    assert.equal(wrong.status, 401);
    await request(app).post('/auth/login').send({ username, password: 'Str0ng-passw0rd!' }).expect(200); // a second device
    const sessions = await request(app)
      .get('/user/sessions')
      .set({ Authorization: `Bearer ${refresh.body.accessToken}` });
    const other = (sessions.body as Array<{ tokenId: string; current: boolean }>).find((s) => !s.current);
    assert.ok(other, sessions.text);
    const ended = await request(app)
      .delete(`/user/sessions/${other.tokenId}`)
      .set({ Authorization: `Bearer ${refresh.body.accessToken}` });
    check('delete', '/user/sessions/{tokenId}', ended as unknown as Res);
    assert.equal(ended.status, 204);
    const all = await request(app)
      .post('/user/logout-all')
      .set({ Authorization: `Bearer ${refresh.body.accessToken}` });
    check('post', '/user/logout-all', all as unknown as Res);
    assert.equal(all.status, 200);
  });
});
