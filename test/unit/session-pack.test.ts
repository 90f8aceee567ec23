/** The packed session record and the value of one key per session (session-pack.ts, session-codec.ts): exact round trips. */
import assert from 'node:assert/strict';
import { decodeStored, encodeSession, isOneKeyValue, storedHash, TOMBSTONE_CODES } from '../../src/adapters/redis/session-codec';
import { encodeRecord } from '../../src/adapters/redis/session-pack';
import { storedSessionOf } from '../../src/adapters/redis/session-values';
import type { SessionRecord } from '../../src/domain/session';
import { makeRecord, newHash } from '../contract/session-records';

const roundTrip = (hash: string, record: SessionRecord, last = 1_764_000_000_123) => {
  const value = encodeSession(last, hash, record);
  assert.ok(isOneKeyValue(value), value);
  assert.equal(storedHash(value), hash);
  assert.deepEqual(storedSessionOf(hash, value, null), { state: 'active', record, lastActiveAt: last });
  return value;
};

describe('session values of one key per session', () => {
  it('packs a login record without field names, its token id left out when it is the key id', () => {
    const hash = newHash();
    const record = makeRecord({ createdAt: 1_764_000_000_000, tokenId: hash.slice(0, 32), deviceType: 'PC' });
    const value = roundTrip(hash, record);
    assert.ok(value.startsWith(`1764000000123|${hash}|[1,"admin",null,1764000000000,`), value);
    assert.ok(!value.includes('"principal"') && !value.includes('"userId"'), value);
  });

  it('round-trips every optional field, absent or present, and a token id that is not the key id', () => {
    const hash = newHash();
    const base = makeRecord({ createdAt: 5, expiresAt: null });
    const full: SessionRecord = {
      ...base,
      principal: { ...base.principal, nickname: 'Al', avatar: 'https://x/a.png' },
      client: { ip: '::1', userAgent: 'ua', device: 'd', os: 'Linux', browser: 'Firefox 128', deviceType: 'APP' },
      attrs: { rtFamily: 'f', shareSeed: 's' },
      requiredActions: ['update-password', 'mfa-enrolment'],
      authTime: 7,
      amr: ['pwd', 'otp', 'mfa'],
      rememberMe: false,
    };
    roundTrip(hash, full);
    roundTrip(hash, base);
    // The session's own device type: the client's (written as 1), another one, or none.
    assert.ok(roundTrip(hash, { ...full, deviceType: 'APP' }).endsWith(',0,1]'));
    roundTrip(hash, { ...full, deviceType: 'H5' });
    assert.ok(!roundTrip(hash, { ...base, deviceType: 'PC' }).includes('"deviceType"'));
    roundTrip(hash, { ...base, client: {}, attrs: {} });
    roundTrip(hash, { ...base, principal: { ...base.principal, roles: [], permissions: [] } });
  });

  it('keeps a record the packed form cannot hold exactly as its JSON object', () => {
    const hash = newHash();
    const base = makeRecord({ createdAt: 5 });
    const odd = [
      { ...base, extra: 1 },
      { ...base, principal: { ...base.principal, nickname: null } },
      { ...base, client: { ...base.client, tls: true } },
      { ...base, rememberMe: true },
    ] as unknown as SessionRecord[];
    for (const record of odd) {
      assert.ok(encodeRecord(hash, record).startsWith('{'), JSON.stringify(record));
      roundTrip(hash, record);
    }
  });

  it('reads one-letter tombstones and the previous names, and the previous JSON record', () => {
    for (const [state, code] of Object.entries(TOMBSTONE_CODES)) {
      assert.deepEqual(decodeStored(code), { state });
      assert.deepEqual(decodeStored(state), { state });
    }
    const record = makeRecord({ createdAt: 5 });
    assert.deepEqual(storedSessionOf(newHash(), JSON.stringify(record), '9'), { state: 'active', record, lastActiveAt: 9 });
    assert.deepEqual(storedSessionOf(newHash(), JSON.stringify(record), null), { state: 'active', record, lastActiveAt: 5 });
  });

  it('reads a value of another hash with the same key id, or a corrupt one, as absent', () => {
    const hash = newHash();
    const record = makeRecord({ createdAt: 5 });
    const value = encodeSession(1, hash, record);
    assert.equal(storedSessionOf(`${hash.slice(0, 32)}${'0'.repeat(32)}`, value, null), null);
    for (const bad of [`${value.slice(0, 80)}`, `0000000000001|${hash}|[1]`, `0000000000001|${hash}|[2,"admin"]`, 'x', '']) {
      assert.equal(storedSessionOf(hash, bad, null), null, bad);
    }
  });
});
