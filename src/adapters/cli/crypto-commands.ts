/** The commands that need no store or directory: RSA keys, password hashes and ciphertexts, request signatures. */
import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { NONCE_PATTERN, RFC9421_ALG, RFC9421_BODY_COMPONENT, isSfString, parseTimestamp, signingPrefix } from '../../domain/signing';
import { contentDigest, requestSignatureBase, serializeSignatureParams } from '../../application/signing/rfc9421-message';
import { encryptForLogin, generateRsaKeyPairPem, RSA_KEY_SIZES } from '../crypto/rsa';
import { intOption, parse, password, required, str } from './args';
import type { CliDeps } from './deps';
import { CliFailure, UsageError, type CliIo } from './io';

export async function keysGenerate(io: CliIo, argv: readonly string[]): Promise<void> {
  const { values } = parse(argv, { out: { type: 'string' }, bits: { type: 'string' }, force: { type: 'boolean' } }, 0);
  const out = required(values, 'out');
  const bits = (intOption(str(values, 'bits'), 'bits', (n) => (RSA_KEY_SIZES as readonly number[]).includes(n), '2048 or 3072') ?? 2048) as
    2048 | 3072;
  const privateFile = path.resolve(out, 'rsa-private.pem');
  const publicFile = path.resolve(out, 'rsa-public.pem');
  if (values.force !== true) {
    for (const f of [privateFile, publicFile]) if (existsSync(f)) throw new CliFailure(`${f} exists; use --force to overwrite`);
  }
  mkdirSync(path.resolve(out), { recursive: true, mode: 0o700 });
  const { privatePem, publicPem } = generateRsaKeyPairPem(bits);
  writeFileSync(privateFile, privatePem, { mode: 0o600 });
  chmodSync(privateFile, 0o600); // also when the file already existed with another mode
  writeFileSync(publicFile, publicPem, { mode: 0o644 });
  io.out(`private key: ${privateFile} (RSA ${bits}, PKCS#8, mode 0600)`);
  io.out(`public key:  ${publicFile} (SPKI)`);
  io.out(`use it with: SVC_RSA_PRIVATE_KEY="$(cat ${privateFile})"`);
}

export async function passwordCommand(io: CliIo, argv: readonly string[], deps: () => Promise<CliDeps>): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === 'hash') {
    const { values } = parse(rest, { cost: { type: 'string' }, password: { type: 'string' } }, 0);
    const cost = intOption(str(values, 'cost'), 'cost', (n) => n >= 10 && n <= 15, 'an integer from 10 to 15') ?? 10;
    const pw = await password(io, values, true);
    if (Buffer.byteLength(pw, 'utf8') > 72) throw new UsageError('the password is longer than 72 bytes in UTF-8 (BCrypt reads no further)');
    io.out(await (await deps()).hashPassword(pw, cost));
    return;
  }
  if (sub === 'encrypt') {
    const { values } = parse(rest, { 'public-key': { type: 'string' }, padding: { type: 'string' }, password: { type: 'string' } }, 0);
    const keyArg = required(values, 'public-key');
    const padding = str(values, 'padding') ?? 'oaep-sha256';
    if (padding !== 'oaep-sha256' && padding !== 'pkcs1') throw new UsageError(`--padding must be oaep-sha256 or pkcs1, got "${padding}"`);
    let pem = keyArg;
    if (!keyArg.includes('-----BEGIN')) {
      if (!existsSync(keyArg)) throw new UsageError(`--public-key: no such file "${keyArg}" (give a file or the PEM text)`);
      pem = readFileSync(keyArg, 'utf8');
    }
    const pw = await password(io, values, false);
    try {
      io.out(encryptForLogin(pem, padding, pw));
    } catch (e) {
      throw new UsageError(`--public-key: not a usable RSA key (${(e as Error).message.split('\n')[0]})`);
    }
    return;
  }
  throw new UsageError(sub === undefined ? 'password: expected "hash" or "encrypt"' : `password: unknown subcommand "${sub}"`);
}

const SIGN_OPTIONS = {
  scheme: { type: 'string' },
  'app-key': { type: 'string' },
  secret: { type: 'string' },
  body: { type: 'string' },
  'body-file': { type: 'string' },
  timestamp: { type: 'string' },
  nonce: { type: 'string' },
  method: { type: 'string' },
  url: { type: 'string' },
} as const;

type Values = Record<string, string | boolean | undefined>;

function bodyOf(values: Values): Buffer {
  const bodyText = str(values, 'body');
  const bodyFile = str(values, 'body-file');
  if ((bodyText === undefined) === (bodyFile === undefined))
    throw new UsageError('give exactly one of --body <text> (may be "") or --body-file <file>');
  if (bodyFile === undefined) return Buffer.from(bodyText ?? '', 'utf8');
  if (!existsSync(bodyFile)) throw new UsageError(`--body-file: no such file "${bodyFile}"`);
  return readFileSync(bodyFile);
}

/** v1: the four X-* headers over appKey + timestamp + nonce + body. */
function signV1(appKey: string, secret: string, body: Buffer, timestamp: string, nonce: string): string[] {
  const sign = createHmac('sha256', secret)
    .update(signingPrefix(appKey, timestamp, nonce), 'utf8')
    .update(body)
    .digest('hex');
  return [`X-App-Key: ${appKey}`, `X-Timestamp: ${timestamp}`, `X-Nonce: ${nonce}`, `X-Sign: ${sign}`];
}

/** RFC 9421: Content-Digest (with a body), Signature-Input and Signature over method, target URI and digest. */
function signRfc9421(values: Values, appKey: string, secret: string, body: Buffer, timestamp: string, nonce: string): string[] {
  const method = required(values, 'method').toUpperCase();
  if (!/^[A-Z]{1,20}$/.test(method)) throw new UsageError(`--method must be an HTTP method such as GET or POST, got "${method}"`);
  const urlText = required(values, 'url');
  let url: URL;
  try {
    url = new URL(urlText);
  } catch {
    throw new UsageError('--url must be the absolute URL the request is sent to (https://host/path?query)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('--url must be an http or https URL');
  if (!isSfString(appKey)) throw new UsageError('--app-key must be printable ASCII for rfc9421 (it is the keyid)');
  const digest = body.length > 0 ? contentDigest(body) : undefined;
  const components = ['@method', '@target-uri', ...(digest === undefined ? [] : [RFC9421_BODY_COMPONENT])];
  const params = serializeSignatureParams(components, [
    ['created', Math.floor(Number(timestamp) / 1000)],
    ['nonce', nonce],
    ['keyid', appKey],
    ['alg', RFC9421_ALG],
  ]);
  const headers = new Map<string, string[]>(digest === undefined ? [] : [[RFC9421_BODY_COMPONENT, [digest]]]);
  const base = requestSignatureBase({ method, targetUri: url.href, headers, body }, components, params);
  const signature = createHmac('sha256', secret).update(base, 'utf8').digest('base64');
  return [
    ...(digest === undefined ? [] : [`Content-Digest: ${digest}`]),
    `Signature-Input: sig1=${params}`,
    `Signature: sig1=:${signature}:`,
  ];
}

export async function signCommand(io: CliIo, argv: readonly string[]): Promise<void> {
  const { values } = parse(argv, SIGN_OPTIONS, 0);
  const scheme = str(values, 'scheme') ?? 'v1';
  if (scheme !== 'v1' && scheme !== 'rfc9421') throw new UsageError(`--scheme must be v1 or rfc9421, got "${scheme}"`);
  if (scheme === 'v1' && (values.method !== undefined || values.url !== undefined))
    throw new UsageError('--method and --url belong to --scheme rfc9421 (v1 signs neither)');
  const appKey = required(values, 'app-key');
  const secret = required(values, 'secret');
  const body = bodyOf(values);
  const timestamp = str(values, 'timestamp') ?? String(Date.now());
  if (parseTimestamp(timestamp) === null) throw new UsageError(`--timestamp must be milliseconds since the epoch, got "${timestamp}"`);
  const nonce = str(values, 'nonce') ?? randomBytes(16).toString('hex');
  if (!NONCE_PATTERN.test(nonce)) throw new UsageError('--nonce must be 8 to 128 characters of A-Z, a-z, 0-9, "_" or "-"');
  const lines =
    scheme === 'v1' ? signV1(appKey, secret, body, timestamp, nonce) : signRfc9421(values, appKey, secret, body, timestamp, nonce);
  for (const line of lines) io.out(line);
}
