/**
 * oathtool (OATH Toolkit, Debian's `oathtool` package): an implementation of RFC 6238 independent of the one the
 * service uses, to compute the codes an authenticator app would show. Tests that need it skip loudly without it,
 * except under CI=true, where a missing tool fails the run (.ci/run installs it).
 */
import { execFileSync } from 'node:child_process';

let present: boolean | undefined;

export function oathtoolAvailable(): boolean {
  if (present === undefined) {
    try {
      execFileSync('oathtool', ['--version'], { stdio: 'ignore' });
      present = true;
    } catch {
      present = false;
    }
  }
  return present;
}

/** Call in a `before` hook. */
export function requireOathtool(ctx: Mocha.Context): void {
  if (oathtoolAvailable()) return;
  if (process.env.CI === 'true') throw new Error('oathtool is not installed and CI=true: apt-get install -y oathtool');
  console.warn('\n  !!! SKIPPING oathtool tests: oathtool is not installed (apt-get install -y oathtool) !!!\n');
  ctx.skip();
}

/** The TOTP code oathtool computes for a base32 secret at `epochMs` (SHA-1, 30 s, `digits` digits). */
export function oathtoolCode(secret: string, epochMs: number, digits = 6): string {
  const at = `@${Math.floor(epochMs / 1000)}`;
  return execFileSync('oathtool', ['--totp', '-b', `--digits=${digits}`, `--now=${at}`, secret], { encoding: 'utf8' }).trim();
}
