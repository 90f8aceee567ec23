/** The problems loadConfig refuses a configuration with (the test fails if it is accepted). */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/main/config';

/** A new empty configuration directory (no application.yml): the environment alone decides. */
export const emptyConfigDir = (): string => mkdtempSync(path.join(tmpdir(), 'agcfg-'));

export function problemsOf(env: Record<string, string>, configDir = emptyConfigDir()): string[] {
  try {
    loadConfig({ env, configDir });
  } catch (e) {
    assert.ok(e instanceof ConfigError, `expected ConfigError, got ${String(e)}`);
    return [...e.problems];
  }
  assert.fail('expected the configuration to be refused');
}
