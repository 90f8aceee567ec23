/** Generators and the response-format invariant of the hostile-input suites (test/reliability). */
import assert from 'node:assert/strict';
import fc from 'fast-check';

export type Format = 'envelope' | 'problem';

export function assertAppFormat(
  format: Format,
  res: { status: number; headers: Record<string, string>; text: string },
  what: string,
): void {
  assert.ok(res.status < 500, `${what}: got ${res.status} ${res.text.slice(0, 300)}`);
  if (res.status < 400) return;
  const type = res.headers['content-type'] ?? '';
  const body = JSON.parse(res.text) as Record<string, unknown>;
  if (format === 'envelope') {
    assert.match(type, /^application\/json/, what);
    assert.equal(typeof body.code, 'number', what);
    assert.notEqual(body.code, 0, what);
    assert.equal(body.data, null, what);
    assert.equal(typeof body.message, 'string', what);
  } else {
    assert.match(type, /^application\/problem\+json/, what);
    assert.equal(body.status, res.status, what);
    for (const m of ['type', 'title', 'detail', 'instance']) assert.equal(typeof body[m], 'string', `${what}: ${m}`);
  }
}

export const ascii = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 64 });
export const junkToken = fc.oneof(
  ascii,
  fc.uuid().map((u) => `Bearer ${u}`),
  ascii.map((s) => `Bearer ${s}`),
  fc.constant(`Bearer ${'a'.repeat(8200)}`),
  fc.constant('Basic dXNlcjpwYXNz'),
);
export const hostileJson = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.constant({ __proto__: { polluted: true } }),
  fc.constant(JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}')),
  fc.record({
    username: fc.oneof(ascii, fc.integer(), fc.constant(null), fc.array(ascii)),
    password: fc.oneof(ascii, fc.base64String({ maxLength: 2000 }), fc.constant('A'.repeat(100_000))),
  }),
  fc.integer({ min: 2, max: 3000 }).map((d) => JSON.parse('['.repeat(d) + ']'.repeat(d)) as unknown),
);
export const rawBody = fc.oneof(
  hostileJson.map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
  fc.uint8Array({ maxLength: 256 }).map((b) => Buffer.from(b)), // invalid UTF-8 and NUL bytes
  fc.constant(Buffer.from('{"a":"\u0000\ud800"}')),
  fc.constant(Buffer.alloc(2 * 1024 * 1024, 0x61)),
);
export const headerSet = fc.record(
  {
    authorization: junkToken,
    'x-app-key': ascii,
    'x-timestamp': fc.oneof(fc.constant('-1'), fc.constant('99999999999999999999'), fc.constant('1e3'), fc.integer().map(String), ascii),
    'x-nonce': ascii,
    'x-sign': fc.oneof(ascii, fc.stringMatching(/^[0-9a-f]{64}$/), fc.constant('zz'.repeat(32))),
    'x-idempotent-token': ascii,
    'idempotency-key': ascii,
    'x-echo': fc.constant('<script>alert(1)</script>'),
    'x-forwarded-for': fc.oneof(ascii, fc.constant('1.2.3.4, <x>, ::1')),
    'content-type': fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      'application/json; charset=latin-99',
    ),
  },
  { requiredKeys: [] },
);
export const query = fc.dictionary(
  fc.oneof(ascii, fc.constant('__proto__')),
  fc.oneof(ascii, fc.constant('<img src=x onerror=alert(1)>')),
  { maxKeys: 4 },
);
export const pathParam = fc.oneof(
  ascii.filter((s) => s.length > 0),
  fc.constant('..%2f..%2fetc'),
  fc.constant('%00'),
  fc.constant('x'.repeat(3000)),
);

export function concretePath(template: string, param: string): string {
  return template.replace(/:[A-Za-z_]+/g, encodeURIComponent(param));
}
