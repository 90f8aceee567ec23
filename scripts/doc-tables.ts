/**
 * The generated tables of the docs: each sits between two marker comments in its Markdown file, so
 * the prose around it stays hand-written. `npm run docs:config` and `npm run docs:errors` write
 * them; test/unit/docs-generated.test.ts fails when a committed file differs from what they write.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CATALOGUE, type CatalogueEntry } from '../src/adapters/koa/error-catalogue';
import type { Reason } from '../src/domain/errors';
import { CONFIG_KEYS, declarationOf, envNamesOf, type ConfigKey } from '../src/main/config/keys';

export interface GeneratedTable {
  /** The Markdown file, relative to the repository root. */
  readonly file: string;
  /** Names the markers: `<!-- <name>:start ... -->` and `<!-- <name>:end -->`. */
  readonly name: string;
  /** The command that rewrites it. */
  readonly command: string;
  /** What the source of the table is, for the start marker. */
  readonly source: string;
  readonly render: () => string;
}

const root = path.join(__dirname, '..');

/** How the Default column shows a declared default: secrets and empty values are (none). */
function defaultCell(key: ConfigKey): string {
  const d = declarationOf(key);
  if (d.defaultText !== undefined) return d.defaultText;
  const value: unknown = d.default;
  if (d.secret || value === '' || value === undefined || (Array.isArray(value) && value.length === 0)) return '(none)';
  return `\`${typeof value === 'object' ? JSON.stringify(value) : String(value)}\``;
}

export function configTable(): string {
  const rows = CONFIG_KEYS.map((key) => {
    const env = envNamesOf(key)
      .map((name) => `\`${name}\``)
      .join(' or ');
    return `| \`${key}\` | ${env} | ${defaultCell(key)} | ${declarationOf(key).doc} |`;
  });
  return ['| Key | Environment variable | Default | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}

/** The catalogue in its own order (grouped by status), every reason once. */
export function errorTable(): string {
  const entries = Object.entries(ERROR_CATALOGUE) as Array<[Reason, CatalogueEntry]>;
  const rows = entries.map(([reason, e]) => `| \`${reason}\` | ${e.status} | ${e.code} | ${e.title} |`);
  return ['| Reason (web `code`) | HTTP | Admin `code` | Title |', '|---|---|---|---|', ...rows].join('\n');
}

export const TABLES: readonly GeneratedTable[] = [
  {
    file: 'docs/configuration.md',
    name: 'config-keys',
    command: 'npm run docs:config',
    source: 'src/main/config/settings/',
    render: configTable,
  },
  {
    file: 'docs/errors.md',
    name: 'error-catalogue',
    command: 'npm run docs:errors',
    source: 'src/adapters/koa/error-catalogue.ts',
    render: errorTable,
  },
];

/** The file's text with the table between its markers replaced (throws when the markers are missing). */
export function withTable(text: string, table: GeneratedTable): string {
  const start = new RegExp(`<!-- ${table.name}:start[^>]*-->\\n`);
  const end = `<!-- ${table.name}:end -->`;
  const from = text.search(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${table.file}: no <!-- ${table.name}:start --> ... ${end} markers`);
  const marker = `<!-- ${table.name}:start (generated from ${table.source} by ${table.command}; do not edit by hand) -->\n`;
  return `${text.slice(0, from)}${marker}${table.render()}\n${text.slice(to)}`;
}

export function readDoc(table: GeneratedTable): string {
  return readFileSync(path.join(root, table.file), 'utf8');
}

/** Rewrites the table in its file; true when the file changed. */
export function writeTable(table: GeneratedTable): boolean {
  const before = readDoc(table);
  const after = withTable(before, table);
  if (after !== before) writeFileSync(path.join(root, table.file), after);
  return after !== before;
}

/** Entry point of the docs:* scripts: rewrites the named tables. */
export function writeTables(names: readonly string[]): void {
  for (const table of TABLES.filter((t) => names.includes(t.name))) {
    console.log(`${table.file}: ${writeTable(table) ? 'table rewritten' : 'already up to date'}`);
  }
}
