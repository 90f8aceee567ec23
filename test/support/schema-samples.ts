/**
 * Values from the JSON Schemas of an OpenAPI 3.1 document, as fast-check arbitraries: what a
 * schema-driven client or fuzzer would send. Covers what the documents use ($ref, type and type
 * lists, enum, const, anyOf / oneOf / allOf, string length, pattern and format, number ranges,
 * objects with required and optional properties, arrays).
 */
import fc from 'fast-check';

export type Schema = Record<string, unknown>;

export function resolve(doc: Schema, schema: Schema): Schema {
  let s = schema;
  for (let depth = 0; typeof s.$ref === 'string' && depth < 20; depth++) {
    const parts = s.$ref
      .replace(/^#\//, '')
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    s = parts.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], doc) as Schema;
  }
  return s;
}

function stringArbitrary(s: Schema): fc.Arbitrary<string> {
  const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
  const maxLength = typeof s.maxLength === 'number' ? s.maxLength : Math.max(minLength, 24);
  const fits = (v: string): boolean => v.length >= minLength && v.length <= maxLength;
  if (typeof s.pattern === 'string') return fc.stringMatching(new RegExp(s.pattern)).filter(fits);
  switch (s.format) {
    case 'uuid':
      return fc.uuid();
    case 'email':
      return fc.emailAddress();
    case 'date-time':
      return fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString());
    case 'uri':
      return fc.webUrl();
    default:
      return fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 24), unit: 'grapheme-ascii' });
  }
}

function numberArbitrary(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : -1000;
  const max =
    typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - 1 : Math.max(min, 0) + 1000;
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

function objectArbitrary(doc: Schema, s: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set((s.required ?? []) as string[]);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, v] of Object.entries(props)) record[k] = arbitraryOf(doc, v, depth + 1);
  const requiredKeys = Object.keys(props).filter((k) => required.has(k));
  return fc.record(record, { requiredKeys }) as fc.Arbitrary<Record<string, unknown>>;
}

/** An arbitrary of values valid against `schema` (as far as JSON Schema alone says). */
export function arbitraryOf(doc: Schema, schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(doc, schema);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if ('const' in s) return fc.constant(s.const);
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(s[key])) return fc.oneof(...(s[key] as Schema[]).map((x) => arbitraryOf(doc, x, depth + 1)));
  }
  if (Array.isArray(s.allOf)) {
    const merged: Schema = { type: 'object', properties: {}, required: [] };
    for (const part of s.allOf as Schema[]) {
      const r = resolve(doc, part);
      Object.assign(merged.properties as Schema, r.properties ?? {});
      (merged.required as string[]).push(...((r.required ?? []) as string[]));
    }
    return objectArbitrary(doc, merged, depth);
  }
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      return stringArbitrary(s);
    case 'integer':
      return numberArbitrary(s, true);
    case 'number':
      return numberArbitrary(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = (s.items ?? {}) as Schema;
      const minLength = typeof s.minItems === 'number' ? s.minItems : 0;
      const maxLength = Math.min(typeof s.maxItems === 'number' ? s.maxItems : 3, minLength + 3);
      return depth > 4 ? fc.constant([]) : fc.array(arbitraryOf(doc, items, depth + 1), { minLength, maxLength });
    }
    case 'object':
      return objectArbitrary(doc, s, depth);
    default:
      return s.properties !== undefined ? objectArbitrary(doc, s, depth) : fc.constant('x');
  }
}

/** A value of the wrong JSON type for `schema`. */
export function wrongTypeFor(doc: Schema, schema: Schema): unknown {
  const s = resolve(doc, schema);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (Array.isArray(s.enum) || type === 'string') return 12345;
  if (type === 'integer' || type === 'number' || type === 'boolean') return 'not-a-number';
  if (type === 'array') return 'not-an-array';
  return 'not-an-object';
}
