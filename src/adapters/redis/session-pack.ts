/**
 * The packed form of a session record (docs/sessions.md, "Session keys in Redis"): a JSON array of the
 * record's fields by position, so no field name is stored per session and one JSON.parse decodes it.
 *
 *   [1, loginType, tokenId, createdAt, expiresAt, userId, username, nickname, avatar, roles, permissions,
 *    ip, userAgent, device, os, browser, deviceType, attrs, requiredActions, authTime, amr, rememberMe,
 *    the session's own deviceType (1: the same as the client's, as every login writes it)]
 *
 * An absent optional field is null (trailing nulls are left out); tokenId is null when it is the
 * session's key id (the first 32 hex digits of its token hash, as every login since this layout
 * writes it); rememberMe false is 0. A record this form cannot hold exactly (a field it does not
 * know, a null where a value is optional) is written as the JSON object instead: both read back.
 */
import type { ClientInfo, Principal, SessionRecord } from '../../domain/session';

/** First element of a packed record: its format. */
const PACKED_V1 = 1;

/** Hex digits of the token hash naming a session's key (and its token id). */
export const SESSION_ID_HEX = 32;

const RECORD_KEYS = new Set([
  'v',
  'loginType',
  'tokenId',
  'createdAt',
  'expiresAt',
  'principal',
  'client',
  'attrs',
  'requiredActions',
  'authTime',
  'amr',
  'rememberMe',
  'deviceType',
]);
const PRINCIPAL_KEYS = new Set(['userId', 'username', 'nickname', 'avatar', 'roles', 'permissions']);
const CLIENT_KEYS = new Set(['ip', 'userAgent', 'device', 'os', 'browser', 'deviceType']);

/** Whether every own key of `o` is one of `known` and none of them holds null. */
function only(o: object, known: ReadonlySet<string>): boolean {
  const r = o as Record<string, unknown>;
  for (const k in r) if (Object.hasOwn(r, k) && (!known.has(k) || r[k] === null)) return false;
  return true;
}

/** Whether the packed form holds `record` exactly. */
function packable(record: SessionRecord): boolean {
  const r = record as unknown as Record<string, unknown>;
  for (const k in r) if (Object.hasOwn(r, k) && (!RECORD_KEYS.has(k) || (r[k] === null && k !== 'expiresAt'))) return false;
  return (
    record.v === 1 &&
    (record.rememberMe === undefined || record.rememberMe === false) &&
    typeof record.principal === 'object' &&
    record.principal !== null &&
    only(record.principal, PRINCIPAL_KEYS) &&
    typeof record.principal.username === 'string' &&
    Array.isArray(record.principal.roles) &&
    Array.isArray(record.principal.permissions) &&
    typeof record.attrs === 'object' &&
    record.attrs !== null &&
    typeof record.client === 'object' &&
    record.client !== null &&
    only(record.client, CLIENT_KEYS)
  );
}

const opt = (v: unknown): unknown => (v === undefined ? null : v);

/** The record as stored after the token hash: packed when it can be, else its JSON object. */
export function encodeRecord(hash: string, record: SessionRecord): string {
  if (!packable(record)) return JSON.stringify(record);
  const p = record.principal;
  const c = record.client;
  const out: unknown[] = [
    PACKED_V1,
    record.loginType,
    record.tokenId === hash.slice(0, SESSION_ID_HEX) ? null : record.tokenId,
    record.createdAt,
    record.expiresAt,
    p.userId,
    p.username,
    opt(p.nickname),
    opt(p.avatar),
    p.roles,
    p.permissions,
    opt(c.ip),
    opt(c.userAgent),
    opt(c.device),
    opt(c.os),
    opt(c.browser),
    opt(c.deviceType),
    record.attrs,
    opt(record.requiredActions),
    opt(record.authTime),
    opt(record.amr),
    record.rememberMe === false ? 0 : null,
    // The session's own device type: 1 when it is the client's (every login since device types writes both).
    record.deviceType === undefined ? null : record.deviceType === c.deviceType ? 1 : record.deviceType,
  ];
  let n = out.length;
  while (n > 0 && out[n - 1] === null) n--;
  out.length = n;
  return JSON.stringify(out);
}

/** Sets `o[k] = v` unless v is null or undefined (an absent optional field). */
function put(o: Record<string, unknown>, k: string, v: unknown): void {
  if (v !== null && v !== undefined) o[k] = v;
}

/** A packed record back as the record, or null when it is not one (corrupt, another format). */
export function unpackRecord(a: unknown, hash: string): SessionRecord | null {
  if (!Array.isArray(a) || a[0] !== PACKED_V1) return null;
  const createdAt: unknown = a[3];
  const expiresAt: unknown = a[4] ?? null;
  const userId: unknown = a[5];
  if (typeof createdAt !== 'number' || (expiresAt !== null && typeof expiresAt !== 'number') || typeof userId !== 'string') return null;
  const principal: Record<string, unknown> = { userId, username: a[6] };
  put(principal, 'nickname', a[7]);
  put(principal, 'avatar', a[8]);
  principal.roles = a[9] ?? [];
  principal.permissions = a[10] ?? [];
  const client: Record<string, unknown> = {};
  put(client, 'ip', a[11]);
  put(client, 'userAgent', a[12]);
  put(client, 'device', a[13]);
  put(client, 'os', a[14]);
  put(client, 'browser', a[15]);
  put(client, 'deviceType', a[16]);
  const record: Record<string, unknown> = {
    v: 1,
    loginType: a[1],
    tokenId: typeof a[2] === 'string' ? a[2] : hash.slice(0, SESSION_ID_HEX),
    createdAt,
    expiresAt,
    principal: principal as unknown as Principal,
    client: client as ClientInfo,
    attrs: a[17] ?? {},
  };
  put(record, 'requiredActions', a[18]);
  put(record, 'authTime', a[19]);
  put(record, 'amr', a[20]);
  if (a[21] === 0) record.rememberMe = false;
  if (a[22] === 1) put(record, 'deviceType', a[16]);
  else if (typeof a[22] === 'string') record.deviceType = a[22];
  return record as unknown as SessionRecord;
}
