/** Session records for the session store tests: random token hashes and records with test defaults. */
import { randomBytes } from 'node:crypto';
import type { SessionRecord } from '../../src/domain/session';
import type { LoginType } from '../../src/domain/login-type';

const HOUR = 3_600_000;

export const newHash = (): string => randomBytes(32).toString('hex');

export function makeRecord(opts: {
  loginType?: LoginType;
  userId?: string;
  createdAt: number;
  expiresAt?: number | null;
  tokenId?: string;
  deviceType?: string;
}): SessionRecord {
  return {
    v: 1,
    loginType: opts.loginType ?? 'admin',
    tokenId: opts.tokenId ?? randomBytes(8).toString('hex'),
    createdAt: opts.createdAt,
    expiresAt: opts.expiresAt === undefined ? opts.createdAt + HOUR : opts.expiresAt,
    principal: { userId: opts.userId ?? 'u1', username: 'alice', roles: ['admin'], permissions: ['system:user:list'] },
    client: { ip: '203.0.113.7', userAgent: 'test', ...(opts.deviceType !== undefined ? { deviceType: opts.deviceType } : {}) },
    ...(opts.deviceType !== undefined ? { deviceType: opts.deviceType } : {}),
    attrs: { family: 'f1' },
  };
}
