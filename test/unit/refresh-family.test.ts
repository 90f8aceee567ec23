/** The refresh family record and token format (refresh-family.ts): what is live, what is an earlier token, what is junk. */
import assert from 'node:assert/strict';
import {
  decodeFamily,
  encodeFamily,
  isEarlier,
  isLive,
  mintToken,
  newFamilyKey,
  parseToken,
  type FamilyState,
} from '../../src/application/session/refresh-family';

const FAMILY = '1764037360000.m_4xV8b2Tz0cKf7HnR1-Yg';
/** A family id of an earlier release (a uuid after the birth time): its tokens of the new form parse alike. */
const UUID_FAMILY = '1764037360000.9b2f4c1e-7d3a-4e58-b1c6-0a8e5f2d3c47';
const base: Omit<FamilyState, 'hash'> = {
  userId: '7',
  deviceType: 'PC',
  gen: 0,
  accessHash: 'a'.repeat(64),
  rotatedAt: 0,
  key: newFamilyKey(),
};

describe('refresh family record and token', () => {
  it('a minted token parses back to its family and rotation, and is the live one of the record it was minted for', () => {
    const { token, hash } = mintToken(FAMILY, base);
    const t = parseToken(token);
    assert.ok(t !== null);
    assert.equal(t.family, FAMILY);
    assert.equal(t.gen, 0);
    assert.equal(isLive({ ...base, hash }, t), true);
    assert.equal(isEarlier({ ...base, hash }, t), false);
    assert.ok(token.length <= 100, `${token.length} characters`);
  });

  it('a family of an earlier release (uuid) parses alike', () => {
    const { token } = mintToken(UUID_FAMILY, { ...base, gen: 7 });
    assert.deepEqual({ ...parseToken(token), secret: '' }, { family: UUID_FAMILY, gen: 7, secret: '' });
  });

  it('after rotations, every earlier token of the family is recognised as earlier; none is live', () => {
    const tokens = [0, 1, 2, 3].map((gen) => mintToken(FAMILY, { ...base, gen }));
    const state = { ...base, gen: 3, hash: tokens[3]?.hash ?? '' };
    for (const [gen, minted] of tokens.entries()) {
      const t = parseToken(minted.token);
      assert.ok(t !== null);
      assert.equal(isLive(state, t), gen === 3, `gen ${gen} live`);
      assert.equal(isEarlier(state, t), gen < 3, `gen ${gen} earlier`);
    }
  });

  it('a token with a forged tag, another family key, or a later rotation count is neither', () => {
    const { token } = mintToken(FAMILY, { ...base, gen: 1 });
    const state = { ...base, gen: 2, hash: mintToken(FAMILY, { ...base, gen: 2 }).hash };
    const t = parseToken(token);
    assert.ok(t !== null);
    assert.equal(isEarlier({ ...state, key: newFamilyKey() }, t), false, 'another key');
    const forged = { ...t, secret: 'A'.repeat(32) };
    assert.equal(isEarlier(state, forged), false, 'forged tag');
    assert.equal(isLive(state, { ...t, gen: 2 }), false, 'right count, wrong secret');
    assert.equal(isEarlier(state, { ...t, gen: 5 }), false, 'a later count');
  });

  it('a rotation under way (no live hash) has no live token', () => {
    const { token, hash } = mintToken(FAMILY, base);
    const t = parseToken(token);
    assert.ok(t !== null && hash !== '');
    assert.equal(isLive({ ...base, hash: '' }, t), false);
  });

  it('malformed tokens do not parse; the 32-hex tokens of earlier releases are not of this form', () => {
    for (const bad of [
      '',
      'abc',
      `${FAMILY}.x.${'A'.repeat(32)}`,
      `${FAMILY}.1.${'A'.repeat(31)}`,
      `${FAMILY}.01.${'A'.repeat(32)}`,
      'f'.repeat(32),
    ]) {
      assert.equal(parseToken(bad), null, bad);
    }
  });

  it('the record round-trips; anything else decodes as absent', () => {
    const state = { ...base, hash: 'h', rotatedAt: 123 };
    assert.deepEqual(decodeFamily(encodeFamily(state)), state);
    for (const raw of [null, '', '{}', '[2,"7","PC",0,"h","a",0,"k"]', '[1,7,"PC",0,"h","a",0,"k"]', 'not json']) {
      assert.equal(decodeFamily(raw), null, String(raw));
    }
  });
});
