/**
 * TOTP factors in the process's memory: the file directory's store (its accounts live in memory too), and the
 * embedded default for dev and test. Lost at a restart and not shared between instances: a deployment of several
 * instances on Redis with svc.directory=file has each instance's own enrolments (see docs/sql-directory.md); the SQL
 * directory shares them. Each method runs without awaiting, so it is atomic within the process.
 */
import type { LoginType } from '../../domain/login-type';
import type { ActiveTotp, TotpActivation, TotpStore } from '../../application/ports/totp-store';

interface Entry {
  pending?: { readonly secret: string; readonly expiresAt: number };
  active?: { secret: string; lastStep: number };
  recoveryHashes: Set<string>;
}

export class InMemoryTotpStore implements TotpStore {
  private readonly entries = new Map<string, Entry>();

  async savePending(loginType: LoginType, userId: string, secret: string, expiresAt: number): Promise<void> {
    this.entry(loginType, userId).pending = { secret, expiresAt };
  }

  async pending(loginType: LoginType, userId: string, now: number): Promise<string | null> {
    const p = this.entries.get(keyOf(loginType, userId))?.pending;
    return p !== undefined && p.expiresAt > now ? p.secret : null;
  }

  async activate(loginType: LoginType, userId: string, activation: TotpActivation, now: number): Promise<boolean> {
    const e = this.entries.get(keyOf(loginType, userId));
    const p = e?.pending;
    if (e === undefined || p === undefined || p.secret !== activation.pendingSecret || p.expiresAt <= now || e.active !== undefined)
      return false;
    e.active = { secret: p.secret, lastStep: activation.lastStep };
    e.recoveryHashes = new Set(activation.recoveryCodeHashes);
    delete e.pending;
    return true;
  }

  async active(loginType: LoginType, userId: string): Promise<ActiveTotp | null> {
    const a = this.entries.get(keyOf(loginType, userId))?.active;
    return a === undefined ? null : { secret: a.secret, lastStep: a.lastStep };
  }

  async acceptStep(loginType: LoginType, userId: string, step: number, resealed?: string): Promise<boolean> {
    const a = this.entries.get(keyOf(loginType, userId))?.active;
    if (a === undefined || step <= a.lastStep) return false;
    a.lastStep = step;
    if (resealed !== undefined) a.secret = resealed;
    return true;
  }

  async useRecoveryCode(loginType: LoginType, userId: string, hash: string): Promise<boolean> {
    const e = this.entries.get(keyOf(loginType, userId));
    return e?.active !== undefined && e.recoveryHashes.delete(hash);
  }

  async recoveryCodesLeft(loginType: LoginType, userId: string): Promise<number> {
    const e = this.entries.get(keyOf(loginType, userId));
    return e?.active === undefined ? 0 : e.recoveryHashes.size;
  }

  async remove(loginType: LoginType, userId: string): Promise<boolean> {
    const key = keyOf(loginType, userId);
    const wasActive = this.entries.get(key)?.active !== undefined;
    this.entries.delete(key);
    return wasActive;
  }

  private entry(loginType: LoginType, userId: string): Entry {
    const key = keyOf(loginType, userId);
    let e = this.entries.get(key);
    if (e === undefined) {
      e = { recoveryHashes: new Set() };
      this.entries.set(key, e);
    }
    return e;
  }
}

const keyOf = (loginType: LoginType, userId: string): string => `${loginType}\n${userId}`;
