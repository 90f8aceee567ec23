/**
 * The TOTP arithmetic (otpauth behind the TotpAlgorithm port) against RFC 6238 Appendix B's SHA-1 vectors, 8 digits
 * as in the RFC and their 6-digit truncations, and against oathtool, an independent implementation; the QR code
 * adapter draws an SVG.
 */
import assert from 'node:assert/strict';
import { OtpauthTotp } from '../../src/adapters/otp/otpauth-totp';
import { QrcodeSvg } from '../../src/adapters/otp/qrcode-svg';
import { oathtoolCode, requireOathtool } from '../support/oathtool';

/** RFC 6238 Appendix B: the SHA-1 seed is the ASCII string "12345678901234567890". */
const RFC_SEED = Buffer.from('12345678901234567890', 'ascii');
/** Unix time (seconds) -> the SHA-1 TOTP of the RFC's table (8 digits). */
const RFC_SHA1_VECTORS: ReadonlyArray<readonly [number, string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

/** RFC 4648 base32 without padding, written out here so the test does not lean on the library's encoder. */
function base32(bytes: Buffer): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const b of bytes) bits += b.toString(2).padStart(8, '0');
  let out = '';
  for (let i = 0; i < bits.length; i += 5) out += alphabet[parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
  return out;
}

const stepOf = (seconds: number) => Math.floor(seconds / 30);

describe('TOTP arithmetic (otpauth, RFC 6238)', () => {
  const secret = base32(RFC_SEED);

  it('the RFC seed in base32 is the one every RFC 6238 test suite uses', () => {
    assert.equal(secret, 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
  });

  it('Appendix B, SHA-1, 8 digits (the RFC table, through the library options)', () => {
    const rfc = new OtpauthTotp({ algorithm: 'SHA1', digits: 8, periodSeconds: 30 });
    for (const [t, code] of RFC_SHA1_VECTORS) assert.equal(rfc.codeAt(secret, stepOf(t)), code, `T=${t}`);
  });

  it('Appendix B, SHA-1, the 6-digit truncations (the service default: SHA-1, 6 digits, 30 s)', () => {
    const totp = new OtpauthTotp();
    assert.equal(totp.digits, 6);
    assert.equal(totp.periodSeconds, 30);
    for (const [t, code] of RFC_SHA1_VECTORS) assert.equal(totp.codeAt(secret, stepOf(t)), code.slice(-6), `T=${t}`);
  });

  it('a step is a non-negative integer', () => {
    const totp = new OtpauthTotp();
    for (const bad of [-1, 1.5, Number.NaN]) {
      assert.throws(() => totp.codeAt(secret, bad), RangeError);
      assert.throws(() => totp.codesAt(secret, [1, bad]), RangeError);
    }
  });

  it("codesAt: a window's codes at once, in the order of its steps, the RFC's codes and each step's codeAt", () => {
    const rfc = new OtpauthTotp({ digits: 8 });
    const steps = RFC_SHA1_VECTORS.map(([t]) => stepOf(t));
    assert.deepEqual(
      rfc.codesAt(secret, steps),
      RFC_SHA1_VECTORS.map(([, code]) => code),
    );
    const totp = new OtpauthTotp();
    const window = [41152262, 41152263, 41152264];
    assert.deepEqual(
      totp.codesAt(secret, window),
      window.map((step) => totp.codeAt(secret, step)),
    );
    assert.deepEqual(totp.codesAt(secret, []), []);
  });

  it('new secrets are 160-bit base32 strings, each different', () => {
    const totp = new OtpauthTotp();
    const secrets = new Set(Array.from({ length: 50 }, () => totp.newSecret()));
    assert.equal(secrets.size, 50);
    for (const s of secrets) assert.match(s, /^[A-Z2-7]{32}$/);
  });

  it('the key URI carries issuer, label and the parameters the apps read', () => {
    const uri = new URL(new OtpauthTotp().keyUri(secret, 'Acme Admin', 'ann@example.com'));
    assert.equal(uri.protocol, 'otpauth:');
    assert.equal(uri.host, 'totp');
    assert.equal(decodeURIComponent(uri.pathname), '/Acme Admin:ann@example.com');
    assert.equal(uri.searchParams.get('secret'), secret);
    assert.equal(uri.searchParams.get('issuer'), 'Acme Admin');
    assert.equal(uri.searchParams.get('algorithm'), 'SHA1');
    assert.equal(uri.searchParams.get('digits'), '6');
    assert.equal(uri.searchParams.get('period'), '30');
  });

  describe('against oathtool (an independent implementation)', () => {
    before(function () {
      requireOathtool(this);
    });

    it('the RFC vectors, 8 and 6 digits', () => {
      for (const [t, code] of RFC_SHA1_VECTORS) {
        assert.equal(oathtoolCode(secret, t * 1000, 8), code);
        assert.equal(oathtoolCode(secret, t * 1000, 6), code.slice(-6));
      }
    });

    it('fresh secrets agree at random moments', () => {
      const totp = new OtpauthTotp();
      for (let i = 0; i < 5; i++) {
        const s = totp.newSecret();
        const at = Date.UTC(2026, 0, 1) + Math.floor(Math.random() * 3e11);
        assert.equal(totp.codeAt(s, Math.floor(at / 30_000)), oathtoolCode(s, at), `${s} at ${at}`);
      }
    });
  });
});

describe('QR codes (qrcode, SVG)', () => {
  it('draws a standalone SVG, different for different texts', async () => {
    const qr = new QrcodeSvg();
    const a = await qr.svg('otpauth://totp/authguard:ann?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=authguard');
    const b = await qr.svg('otpauth://totp/authguard:bob?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=authguard');
    assert.match(a, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]* viewBox="0 0 \d+ \d+"/);
    assert.match(a, /<path [^>]*d="M[^"]+"/);
    assert.match(a, /<\/svg>\s*$/);
    assert.notEqual(a, b);
  });
});
