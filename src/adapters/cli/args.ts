/** Argument parsing for the CLI commands: options, required values, numbers, login types, passwords. */
import { parseArgs } from 'node:util';
import { LOGIN_TYPES, type CliLoginType } from './deps';
import { UsageError, type CliIo } from './io';

export type Opts = Record<string, { type: 'string' | 'boolean' }>;

/** node:util parseArgs, with its errors turned into one-line usage errors. */
export function parse(argv: readonly string[], options: Opts, positionals: number) {
  // A PEM value starts with dashes, which parseArgs reads as an option: pass it as --name=value.
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const next = argv[i + 1];
    if (a.startsWith('--') && options[a.slice(2)]?.type === 'string' && next?.startsWith('-----BEGIN')) {
      args.push(`${a}=${next}`);
      i++;
    } else args.push(a);
  }
  let parsed;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: positionals > 0 });
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0]?.replace(/\. To specify a positional argument.*$/, '') ?? 'bad arguments');
  }
  if (parsed.positionals.length > positionals) throw new UsageError(`unexpected argument "${parsed.positionals[positionals] ?? ''}"`);
  return { values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals };
}

export function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

export function str(values: Record<string, string | boolean | undefined>, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

export function intOption(text: string | undefined, name: string, allowed: (n: number) => boolean, expected: string): number | undefined {
  if (text === undefined) return undefined;
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!allowed(n)) throw new UsageError(`--${name} must be ${expected}, got "${text}"`);
  return n;
}

export function loginType(text: string | undefined): CliLoginType {
  if (text === undefined) throw new UsageError('the login type (admin or web) is required');
  if (!(LOGIN_TYPES as readonly string[]).includes(text)) throw new UsageError(`login type must be admin or web, got "${text}"`);
  return text as CliLoginType;
}

export async function password(io: CliIo, values: Record<string, string | boolean | undefined>, confirm: boolean): Promise<string> {
  const given = str(values, 'password');
  if (given !== undefined) {
    io.err('warning: --password leaves the password in shell history and the process list; prefer stdin or the prompt');
    return given;
  }
  const pw = await io.readSecret('Password', confirm);
  if (pw === '') throw new UsageError('the password is empty');
  return pw;
}
