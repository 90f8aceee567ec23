/**
 * The service as the scale bench drives it: in this process, over HTTP on loopback ports, the
 * admin app (full middleware stack), a second admin app with `session.is-concurrent=false` (its
 * logins replace the account's other sessions) and the web app, all three on ONE infrastructure
 * (one store, as `npm start` shares it), on the in-memory store or on a Redis deployment.
 *
 * The directory is a users file and a members file written to a temporary directory: the demo
 * accounts of config/users.yml (admin, viewer) with the same roles and menus, plus the bench's
 * own accounts, every password hashed with BCrypt cost 4 instead of 10, so that a sample of a
 * thousand real logins takes seconds instead of a minute (the hash's cost changes nothing the
 * store keeps).
 */
import 'reflect-metadata';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import pino from 'pino';
import { createPinoLogger } from '../../src/adapters/logging/pino-logger';
import type { Clock } from '../../src/application/ports/clock';
import { buildAdminApp } from '../../src/main/admin';
import { loadConfig } from '../../src/main/config';
import { CONFIG_KEYS } from '../../src/main/config/keys';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import type { BuiltApp } from '../../src/main/operations';
import { buildWebApp } from '../../src/main/web';
import type { RedisDeployment } from './redis';

export const PASSWORD = 'bench-scale-pass-1';
/** Accounts of the directory files (ids as strings, as the directory gives them). */
export const ACCOUNTS = {
  operator: { id: '1', username: 'admin' },
  viewer: { id: '2', username: 'viewer' },
  /** The account that gets 10,000 sessions. */
  bulk: { id: '3', username: 'bulk' },
} as const;
/** The accounts of the sessions' ends (lifecycle.ts), one each: ids 11, 12, ... */
export const END_ACCOUNTS = 12;
/** The first id of the login sample's accounts (`sample<i>`: one real login each). */
const SAMPLE_ID0 = 1000;
export const sampleAccount = (i: number) => ({ id: String(SAMPLE_ID0 + i), username: `sample${i}` });
export const endAccount = (i: number) => ({ id: String(11 + i), username: `end${i}` });

export type Mode = 'memory' | 'standalone' | 'cluster';

/** Writes users.yml, members.yml and menus.yml (a copy of config/menus.yml) to a temporary directory. */
export function writeDirectory(samples: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ag-scale-dir-'));
  const hash = bcrypt.hashSync(PASSWORD, 4);
  const user = (id: string, username: string, role: string) =>
    `  - { id: ${id}, username: ${username}, nickname: ${username}, password: '${hash}', roles: [${role}] }`;
  const admins = [
    user('1', 'admin', 'admin'),
    user('2', 'viewer', 'viewer'),
    user('3', 'bulk', 'viewer'),
    ...Array.from({ length: END_ACCOUNTS }, (_, i) => user(endAccount(i).id, endAccount(i).username, 'viewer')),
    ...Array.from({ length: samples }, (_, i) => user(sampleAccount(i).id, sampleAccount(i).username, 'viewer')),
  ];
  const roles = [
    'roles:',
    '  admin: { id: 1, name: Administrator, order: 1 }',
    '  viewer: { id: 2, name: Viewer, order: 2, menus: [100, 200] }',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'users.yml'), `${roles}users:\n${admins.join('\n')}\n`);
  const members = [
    user('3', 'bulk', 'member'),
    ...Array.from({ length: END_ACCOUNTS }, (_, i) => user(endAccount(i).id, endAccount(i).username, 'member')),
  ];
  fs.writeFileSync(path.join(dir, 'members.yml'), `roles: { member: [] }\nusers:\n${members.join('\n')}\n`);
  fs.copyFileSync(path.join(__dirname, '../../config/menus.yml'), path.join(dir, 'menus.yml'));
  return dir;
}

/** An app listening on a loopback port. */
export interface Served {
  readonly built: BuiltApp;
  readonly port: number;
  readonly server: http.Server;
}

export interface Stack {
  readonly mode: Mode;
  readonly infra: Infrastructure;
  readonly admin: Served;
  /** The admin app with session.is-concurrent=false (its logins replace), on the same store. */
  readonly replacing: Served;
  readonly web: Served;
  close(): Promise<void>;
}

export interface StackOptions {
  readonly mode: Mode;
  readonly redis?: RedisDeployment;
  readonly prefix: string;
  readonly directory: string;
  readonly clock?: Clock;
  /** session.active-timeout (default -1: off, the default configuration). */
  readonly activeTimeoutSeconds?: number;
}

/** Settings a later release adds (issue 29's cap on sessions per account): set only where this tree knows them. */
function whereKnown(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([k]) => (CONFIG_KEYS as readonly string[]).includes(k)));
}

function configFor(o: StackOptions, concurrent: boolean) {
  return loadConfig({
    env: { APP_PROFILE: 'test' },
    overrides: {
      'svc.store': o.mode === 'memory' ? 'memory' : 'redis',
      ...(o.redis?.overrides ?? {}),
      'svc.redis.key-prefix': o.prefix,
      'svc.captcha.enabled': false,
      'svc.trusted-proxies': '127.0.0.1,::1',
      'svc.users-file': path.join(o.directory, 'users.yml'),
      'svc.members-file': path.join(o.directory, 'members.yml'),
      'session.is-concurrent': concurrent,
      'session.active-timeout': o.activeTimeoutSeconds ?? -1,
      // One account keeps 10,000 sessions here: no cap on how many.
      ...whereKnown({ 'session.max-login-count': -1 }),
    },
  });
}

async function serve(built: BuiltApp): Promise<Served> {
  const server = http.createServer(built.app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { built, server, port: (server.address() as AddressInfo).port };
}

export async function startStack(o: StackOptions): Promise<Stack> {
  const config = configFor(o, true);
  const log = createPinoLogger({ level: 'warn', destination: pino.destination('/dev/null') });
  const infra = createInfrastructure(config, { log, keyPrefix: o.prefix, ...(o.clock ? { clock: o.clock } : {}) });
  // The cluster client first learns the slot map: wait for the store instead of failing the first calls.
  for (let i = 0; i < 200 && !(await infra.health.ping()).up; i++) await new Promise((r) => setTimeout(r, 50));
  const admin = await serve(buildAdminApp(config, infra));
  const replacing = await serve(buildAdminApp(configFor(o, false), infra));
  const web = await serve(buildWebApp(config, infra));
  return {
    mode: o.mode,
    infra,
    admin,
    replacing,
    web,
    close: async () => {
      for (const s of [admin, replacing, web]) {
        s.server.closeAllConnections();
        await new Promise((r) => s.server.close(r));
      }
      await infra.close();
    },
  };
}
