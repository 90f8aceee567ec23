/**
 * Duplicate-submission rules (spec: "Duplicate-submission protection"), free of crypto and HTTP:
 * the canonical form of request parameters, the Idempotency-Key syntax and the stored records.
 */

/**
 * Canonical JSON: object keys sorted (recursively), arrays in order, `undefined` members dropped.
 * Two requests with the same parameters in a different key order or spacing canonicalise equally.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return value === undefined ? 'null' : (JSON.stringify(value) ?? 'null');
  }
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** One-time tokens of earlier releases (stored, still spendable until they expire) are UUIDs. */
export const TOKEN_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The Idempotency-Key value: the draft makes it a structured-field string ("..."), clients
 * often send it bare; both are accepted. 1-255 visible ASCII characters.
 * Returns null when the value is not a usable key.
 */
export function parseIdempotencyKey(header: string): string | null {
  let v = header.trim();
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
  return /^[\x21-\x7e]{1,255}$/.test(v) ? v : null;
}

/** A response kept for replay: status, JSON body text and an allowlist of headers. */
export interface StoredResponse {
  readonly status: number;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** The Idempotency-Key record: running (owned by one request) or done (the response to replay). */
export type IdempotencyRecord =
  | { readonly state: 'running'; readonly owner: string; readonly fingerprint: string; readonly startedAt: number }
  | { readonly state: 'done'; readonly fingerprint: string; readonly response: StoredResponse };

export function decodeIdempotencyRecord(text: string): IdempotencyRecord | null {
  try {
    const r = JSON.parse(text) as Partial<Record<string, unknown>>;
    if (r.state === 'running' && typeof r.owner === 'string' && typeof r.fingerprint === 'string') return r as IdempotencyRecord;
    if (r.state === 'done' && typeof r.fingerprint === 'string' && r.response !== null && typeof r.response === 'object')
      return r as IdempotencyRecord;
  } catch {
    /* not ours */
  }
  return null;
}
