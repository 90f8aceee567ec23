/** The commands that need no store or directory: RSA keys, password hashes and ciphertexts, request signatures. */
import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { NONCE_PATTERN, parseTimestamp, signingPrefix } from '../../domain/signing';
import { encryptForLogin, generateRsaKeyPairPem, RSA_KEY_SIZES } from '../crypto/rsa';
import { intOption, parse, password, required, str } from './args';
import type { CliDeps } from './deps';
import { CliFailure, UsageError, type CliIo } from './io';

export async function keysGenerate(io: CliIo, argv: readonly string[]): Promise<void> {
  const { values } = parse(argv, { out: { type: 'string' }, bits: { type: 'string' }, force: { type: 'boolean' } }, 0);
  const out = required(values, 'out');
  const bits = (intOption(str(values, 'bits'), 'bits', (n) => (RSA_KEY_SIZES as readonly number[]).includes(n), '2048 or 3072') ?? 2048) as 2048 | 3072;
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

export async function signCommand(io: CliIo, argv: readonly string[]): Promise<void> {
  const { values } = parse(
    argv,
    { 'app-key': { type: 'string' }, secret: { type: 'string' }, body: { type: 'string' }, 'body-file': { type: 'string' }, timestamp: { type: 'string' }, nonce: { type: 'string' } },
    0,
  );
  const appKey = required(values, 'app-key');
  const secret = required(values, 'secret');
  const bodyText = str(values, 'body');
  const bodyFile = str(values, 'body-file');
  if ((bodyText === undefined) === (bodyFile === undefined)) throw new UsageError('give exactly one of --body <text> (may be "") or --body-file <file>');
  let body: Buffer;
  if (bodyFile !== undefined) {
    if (!existsSync(bodyFile)) throw new UsageError(`--body-file: no such file "${bodyFile}"`);
    body = readFileSync(bodyFile);
  } else body = Buffer.from(bodyText ?? '', 'utf8');
  const timestamp = str(values, 'timestamp') ?? String(Date.now());
  if (parseTimestamp(timestamp) === null) throw new UsageError(`--timestamp must be milliseconds since the epoch, got "${timestamp}"`);
  const nonce = str(values, 'nonce') ?? randomBytes(16).toString('hex');
  if (!NONCE_PATTERN.test(nonce)) throw new UsageError('--nonce must be 8 to 128 characters of A-Z, a-z, 0-9, "_" or "-"');
  const sign = createHmac('sha256', secret).update(signingPrefix(appKey, timestamp, nonce), 'utf8').update(body).digest('hex');
  io.out(`X-App-Key: ${appKey}`);
  io.out(`X-Timestamp: ${timestamp}`);
  io.out(`X-Nonce: ${nonce}`);
  io.out(`X-Sign: ${sign}`);
}
