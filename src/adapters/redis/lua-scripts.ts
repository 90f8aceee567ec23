/**
 * The Lua scripts of the Redis stores, kept as files in ./scripts (copied beside the compiled
 * code by `npm run build`). Each file is read from disk once per process; each script is
 * registered once per client with `defineCommand` (several stores share one client) and then
 * runs as EVALSHA (ioredis falls back to EVAL on NOSCRIPT), so an operation is one round trip.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RedisClient } from './redis-client';

const SCRIPTS_DIR = path.join(__dirname, 'scripts');

/** Helpers of the session scripts (isTombstone, active, current, ...), prepended to each of them. */
const SESSION_LIB = 'lib/session.lua';

export interface LuaScript {
  /** File under ./scripts. */
  readonly file: string;
  /**
   * How many of the arguments are KEYS (the rest are ARGV); 'counted': the call passes the
   * number of keys as its first argument (a script over a variable number of keys).
   */
  readonly keys: number | 'counted';
  /** Prepend the session helpers. */
  readonly sessionLib?: boolean;
  /**
   * The script of `file`, run once per item of a batch in one call (standalone and Sentinel, where
   * every key is on one server): each item is `keys` KEYS and `args` ARGV, in order; the reply is
   * one entry per item, what the script answers for it alone (nil as false; an error reply in the
   * place of an item whose own call failed, so it fails that item only). The script's body runs
   * unchanged as a function of (KEYS, ARGV), so the batch does exactly what the calls would one by
   * one. Such a script is registered with 'counted' keys.
   */
  readonly perItem?: { readonly keys: number; readonly args: number };
}

/** Runs one of the scripts a store registered: KEYS first, then ARGV. */
export type ScriptRunner<N extends string> = (name: N, ...args: Array<string | number>) => Promise<unknown>;

type ScriptFn = (...args: Array<string | number>) => Promise<unknown>;

const files = new Map<string, string>();

function readScript(file: string): string {
  let text = files.get(file);
  if (text === undefined) {
    text = readFileSync(path.join(SCRIPTS_DIR, file), 'utf8');
    files.set(file, text);
  }
  return text;
}

/** The script's source as sent to Redis: the session helpers (if used), then the script. */
function luaSource(script: LuaScript): string {
  const body = script.perItem === undefined ? readScript(script.file) : perItemBody(readScript(script.file), script.perItem);
  return script.sessionLib === true ? `${readScript(SESSION_LIB)}\n${body}` : body;
}

/** The script's body as a function called once per item of the batch (LuaScript.perItem). */
function perItemBody(body: string, item: { keys: number; args: number }): string {
  return [
    'local function one(KEYS, ARGV)',
    body,
    'end',
    'local out, n = {}, 0',
    `for i = 1, #KEYS / ${item.keys} do`,
    '  local k, a = {}, {}',
    `  for j = 1, ${item.keys} do k[j] = KEYS[(i - 1) * ${item.keys} + j] end`,
    `  for j = 1, ${item.args} do a[j] = ARGV[(i - 1) * ${item.args} + j] end`,
    '  local ok, r = pcall(one, k, a)',
    "  if not ok then r = type(r) == 'table' and r.err and r or {err = tostring(r)} end",
    '  if r == nil then r = false end',
    '  n = n + 1',
    '  out[n] = r',
    'end',
    'return out',
  ].join('\n');
}

/**
 * Registers the scripts on the client (a name another store already registered is left as it
 * is: every script name belongs to one store) and returns the function that runs them.
 */
export function scriptRunner<N extends string>(client: RedisClient, scripts: Readonly<Record<N, LuaScript>>): ScriptRunner<N> {
  const commands = client as unknown as Record<string, ScriptFn | undefined>;
  for (const [name, script] of Object.entries<LuaScript>(scripts)) {
    if (typeof commands[name] !== 'function')
      client.defineCommand(name, {
        numberOfKeys: script.keys === 'counted' || script.perItem !== undefined ? undefined : script.keys,
        lua: luaSource(script),
      });
  }
  return (name, ...args) => {
    const fn = commands[name];
    if (fn === undefined) throw new Error(`redis script ${name} is not defined`);
    return fn.apply(client, args);
  };
}
