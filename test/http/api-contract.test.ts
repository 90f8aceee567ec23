/**
 * The API contract, checked the way an integrator's tools would: no list of routes here. Each
 * app's live document (/v3/api-docs) drives every operation with valid requests built from its
 * schemas (property-based, fast-check) and with schema-violating ones (each required field
 * missing, each field of a wrong type, an extra property, malformed JSON, a wrong content type, an
 * array body; secured operations with no token and with a random one). Every response is checked
 * against the document with a JSON Schema 2020-12 validator (Ajv): the status is declared, the
 * content type is declared for it, the body is valid; nothing answers 5xx, and every violating
 * request is refused with a 4xx.
 */
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import request from 'supertest';
import { SessionManagers } from '../../src/application/session/session-manager';
import { TOKENS } from '../../src/application/tokens';
import { signingPrefix } from '../../src/domain/signing';
import type { BuiltApp } from '../../src/main/operations';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { arbitraryOf, resolve, wrongTypeFor, type Schema } from '../support/schema-samples';

const SIGN_APP = 'contract-app';
const SIGN_SECRET = 'contract-secret-for-the-api-contract-test';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];

interface Operation {
  readonly path: string;
  readonly method: Method;
  readonly op: Schema;
}

interface Sent {
  readonly label: string;
  readonly violating: boolean;
  readonly res: request.Response;
}

const escape = (s: string): string => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'));

function operationsOf(doc: Schema): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
    for (const method of METHODS) if (item[method] !== undefined) out.push({ path, method, op: item[method] });
  }
  return out;
}

class Contract {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private ip = 0;
  readonly problems: string[] = [];
  responses = 0;

  constructor(
    readonly name: 'admin' | 'web',
    readonly doc: Schema,
    private readonly built: BuiltApp,
    private readonly token: () => Promise<string>,
  ) {
    addFormats(this.ajv);
    this.ajv.addSchema(doc, 'https://contract.test/doc.json');
  }

  /** A fresh client address per request (behind the trusted proxy), so the per-IP limits do not mask what is tested. */
  private nextIp(): string {
    this.ip++;
    return `198.51.${(this.ip >> 8) & 255}.${this.ip & 255}`;
  }

  /** Checks a response against the operation's declared responses; records every mismatch. */
  check(o: Operation, sent: Sent): void {
    const { res } = sent;
    this.responses++;
    const where = `${this.name} ${o.method.toUpperCase()} ${o.path} [${sent.label}] -> ${res.status}`;
    if (res.status >= 500) this.problems.push(`${where}: a 5xx (${String(res.text).slice(0, 200)})`);
    if (sent.violating && (res.status < 400 || res.status >= 500))
      this.problems.push(`${where}: a violating request was not refused with a 4xx`);
    const responses = o.op.responses as Record<string, Schema>;
    const declared = responses[String(res.status)] ?? responses.default;
    if (declared === undefined) {
      this.problems.push(`${where}: status not declared (declared: ${Object.keys(responses).join(', ')})`);
      return;
    }
    const response = resolve(this.doc, declared);
    const content = (response.content ?? {}) as Record<string, Schema>;
    const type = String(res.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim();
    const hasBody = res.status !== 204 && res.status !== 304 && type !== '';
    if (!hasBody) {
      if (Object.keys(content).length > 0 && res.status !== 204) this.problems.push(`${where}: no body, but content is declared`);
      return;
    }
    const media = content[type];
    if (media === undefined) {
      this.problems.push(`${where}: content type ${type} not declared (declared: ${Object.keys(content).join(', ') || 'none'})`);
      return;
    }
    const json = type === 'application/json' || type.endsWith('+json');
    const body: unknown = json ? res.body : res.text;
    if (!json && body === undefined) return; // a binary asset: its type is what is declared
    const status = res.status in responses ? res.status : 'default';
    const pointer = `/paths/${escape(o.path)}/${o.method}/responses/${status}/content/${escape(type)}/schema`;
    const validate = this.ajv.getSchema(`https://contract.test/doc.json#${pointer}`);
    if (validate !== undefined && !validate(body)) {
      this.problems.push(
        `${where}: body does not match its schema: ${this.ajv.errorsText(validate.errors)} (${JSON.stringify(body).slice(0, 200)})`,
      );
    }
  }

  private params(o: Operation, seed: number): { url: string; query: Record<string, unknown>; headers: Record<string, string> } {
    let url = o.path;
    const query: Record<string, unknown> = {};
    const headers: Record<string, string> = {};
    for (const p of (o.op.parameters ?? []) as Schema[]) {
      const param = resolve(this.doc, p);
      const [value] = fc.sample(arbitraryOf(this.doc, (param.schema ?? { type: 'string' }) as Schema), { numRuns: 1, seed });
      const text = String(value);
      if (param.in === 'path') url = url.replace(`{${String(param.name)}}`, encodeURIComponent(text === '' ? 'x' : text));
      else if (param.in === 'query' && param.required === true) query[String(param.name)] = text;
      else if (param.in === 'header' && param.required === true) headers[String(param.name)] = text;
    }
    return { url, query, headers };
  }

  /** The extras a valid request needs beyond its schema: a token, an idempotency token or key, a v1 signature. */
  private async credentials(o: Operation, body: string): Promise<Record<string, string>> {
    const headers: Record<string, string> = {};
    if (Array.isArray(o.op.security) && o.op.security.length > 0) headers.Authorization = `Bearer ${await this.token()}`;
    const names = new Set(((o.op.parameters ?? []) as Schema[]).map((p) => String(resolve(this.doc, p).name)));
    if (names.has('X-Idempotent-Token')) {
      const t = await request(this.built.app.callback()).get('/idempotent/token').set(headers);
      headers['X-Idempotent-Token'] = String(t.body?.data?.token ?? t.body?.token ?? '');
    }
    if (names.has('Idempotency-Key')) headers['Idempotency-Key'] = `"${randomUUID()}"`;
    if (names.has('X-App-Key')) {
      const timestamp = String(Date.now());
      const nonce = randomUUID().replace(/-/g, '');
      const sign = createHmac('sha256', SIGN_SECRET)
        .update(signingPrefix(SIGN_APP, timestamp, nonce) + body)
        .digest('hex');
      Object.assign(headers, { 'X-App-Key': SIGN_APP, 'X-Timestamp': timestamp, 'X-Nonce': nonce, 'X-Sign': sign });
    }
    return headers;
  }

  async send(
    o: Operation,
    seed: number,
    opts: { label: string; violating: boolean; body?: string; contentType?: string; auth?: string | null },
  ): Promise<void> {
    const { url, query, headers } = this.params(o, seed);
    const extra = await this.credentials(o, opts.body ?? '');
    if (opts.auth === null) delete extra.Authorization;
    else if (opts.auth !== undefined) extra.Authorization = opts.auth;
    const agent = request(this.built.app.callback());
    let req = agent[o.method](url)
      .query(query)
      .set({ ...headers, ...extra, 'X-Forwarded-For': this.nextIp() });
    if (opts.body !== undefined) req = req.set('Content-Type', opts.contentType ?? 'application/json').send(opts.body);
    this.check(o, { label: opts.label, violating: opts.violating, res: await req });
  }

  /** The JSON body schema of an operation, if it takes one. */
  bodySchema(o: Operation): Schema | undefined {
    const rb = o.op.requestBody === undefined ? undefined : resolve(this.doc, o.op.requestBody as Schema);
    const media = (rb?.content as Record<string, Schema> | undefined)?.['application/json'];
    return media?.schema === undefined ? undefined : resolve(this.doc, media.schema as Schema);
  }

  async drive(o: Operation, seed: number): Promise<void> {
    const schema = this.bodySchema(o);
    const secured = Array.isArray(o.op.security) && o.op.security.length > 0;
    const samples = schema === undefined ? [undefined] : fc.sample(arbitraryOf(this.doc, schema), { numRuns: 3, seed });
    for (const [i, sample] of samples.entries()) {
      await this.send(o, seed + i, {
        label: `valid #${i}`,
        violating: false,
        ...(sample === undefined ? {} : { body: JSON.stringify(sample) }),
      });
    }
    if (secured) {
      await this.send(o, seed, {
        label: 'no token',
        violating: true,
        auth: null,
        ...(samples[0] === undefined ? {} : { body: JSON.stringify(samples[0]) }),
      });
      await this.send(o, seed, {
        label: 'random token',
        violating: true,
        auth: `Bearer ${randomUUID()}`,
        ...(samples[0] === undefined ? {} : { body: JSON.stringify(samples[0]) }),
      });
    }
    if (schema === undefined) return;
    const valid = (samples[0] ?? {}) as Record<string, unknown>;
    const full = fc.sample(arbitraryOf(this.doc, { ...schema, required: Object.keys((schema.properties ?? {}) as Schema) }), {
      numRuns: 1,
      seed,
    })[0] as Record<string, unknown>;
    for (const key of (schema.required ?? []) as string[]) {
      const { [key]: _omitted, ...rest } = { ...full, ...valid };
      await this.send(o, seed, { label: `missing ${key}`, violating: true, body: JSON.stringify(rest) });
    }
    for (const [key, prop] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
      await this.send(o, seed, {
        label: `wrong type ${key}`,
        violating: true,
        body: JSON.stringify({ ...full, [key]: wrongTypeFor(this.doc, prop) }),
      });
    }
    if (schema.additionalProperties === false) {
      await this.send(o, seed, { label: 'extra property', violating: true, body: JSON.stringify({ ...full, unexpectedProperty: 1 }) });
    }
    await this.send(o, seed, { label: 'malformed JSON', violating: true, body: '{"a":' });
    await this.send(o, seed, { label: 'text/plain', violating: true, body: 'plain text', contentType: 'text/plain' });
    await this.send(o, seed, { label: 'array body', violating: true, body: '[]' });
  }
}

describe('API contract: every operation of both live documents, driven from its schemas', function () {
  this.timeout(120_000);
  let infra: TestInfra;
  let apps: ReturnType<typeof buildBoth>;

  before(() => {
    const config = testConfig({
      'svc.trusted-proxies': ['127.0.0.1/32', '::1/128', '::ffff:127.0.0.1/128'],
      'svc.security.sign.apps': { [SIGN_APP]: SIGN_SECRET },
    });
    infra = testInfra(config, { label: 'contract' });
    apps = buildBoth(config, infra);
  });
  after(async () => infra?.dispose());

  /** A fresh session of a real account (logout and logout-all end the one they are sent with). */
  async function tokenFor(name: 'admin' | 'web'): Promise<string> {
    const c = apps[name].container;
    const directory = c.get(name === 'admin' ? TOKENS.AdminDirectory : TOKENS.MemberDirectory);
    const user = await directory.findByUsername(name === 'admin' ? 'admin' : 'alice');
    assert.ok(user, 'the test directory has the demo account');
    const principal = { userId: user.id, username: user.username, roles: [...user.roles], permissions: [...user.permissions] };
    return (await c.get(SessionManagers).get(name).login(principal)).token;
  }

  for (const name of ['admin', 'web'] as const) {
    it(`${name}: every response matches its operation's declared status, content type and schema; no 5xx; violations are 4xx`, async () => {
      const doc = (await request(apps[name].app.callback()).get('/v3/api-docs').expect(200)).body as Schema;
      const contract = new Contract(name, doc, apps[name], () => tokenFor(name));
      const operations = operationsOf(doc);
      assert.ok(operations.length >= 15, `only ${operations.length} operations in the ${name} document`);
      // Operations that end the caller's session run last, each with a session of its own anyway.
      const ordered = [...operations].sort((a, b) => Number(/logout/.test(a.path)) - Number(/logout/.test(b.path)));
      let seed = 20261123;
      for (const o of ordered) await contract.drive(o, seed++);
      assert.ok(contract.responses >= 3 * operations.length, `only ${contract.responses} responses checked`);
      assert.deepEqual(contract.problems, []);
    });
  }
});
