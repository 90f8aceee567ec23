/**
 * Browser tests drive Debian's chromium (/usr/bin/chromium, installed by .ci/run) with
 * playwright-core. Without it they are skipped with a loud notice, except under CI=true.
 */
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function requireChromium(ctx: Mocha.Context): void {
  if (existsSync(CHROMIUM)) return;
  if (process.env.CI === 'true')
    throw new Error(`${CHROMIUM} is missing and CI=true: browser tests must run in CI (apt-get install chromium)`);
  console.warn(`\n  !!! SKIPPING browser tests: ${CHROMIUM} not found (apt-get install -y chromium) !!!\n`);
  ctx.skip();
}
