/** Composition root of the consumer web app (port 8081, login type "web", RFC 9457 problem details). */
import { NoRsaDecryptor } from '../adapters/crypto/rsa';
import { ProblemResponder } from '../adapters/koa/responders';
import type { RouteTable } from '../adapters/koa/route-kit';
import { webAccountRoutes } from '../adapters/koa/routes/account-routes';
import { webAuditRoutes } from '../adapters/koa/routes/audit-routes';
import { webAuthRoutes } from '../adapters/koa/routes/auth-routes';
import { webProfileRoutes } from '../adapters/koa/routes/me-routes';
import { webPasswordRoutes } from '../adapters/koa/routes/password-routes';
import { mfaLoginRoutes } from '../adapters/koa/routes/mfa-login-routes';
import { mfaTotpRoutes } from '../adapters/koa/routes/mfa-totp-routes';
import { problemRoutes } from '../adapters/koa/routes/problem-routes';
import { passkeyLoginRoutes, passkeyRoutes } from '../adapters/koa/routes/passkey-routes';
import { webExampleRoutes } from '../adapters/koa/routes/example-routes';
import { idempotentTokenRoutes } from '../adapters/koa/routes/idempotency-routes';
import { devMailboxRoutes } from '../adapters/koa/routes/dev-mailbox-routes';
import type { AppConfig } from './config';
import { createContainer } from './container';
import type { Infrastructure } from './infrastructure';
import { assembleApp, type BuiltApp } from './operations';
import { mount, routeKitOf } from './route-kit';

const LOGIN_TYPE = 'web';

export function buildWebApp(config: AppConfig, infra: Infrastructure): BuiltApp {
  // Members have a directory of their own (svc.directory); passwords arrive as plain JSON over TLS (no RSA layer).
  const container = createContainer(config, infra, LOGIN_TYPE, {
    directory: infra.directories.members,
    accounts: infra.directories.memberAccounts,
    rsa: new NoRsaDecryptor(),
  });
  const tables: RouteTable[] = [
    webAuthRoutes,
    webAccountRoutes,
    webProfileRoutes,
    webPasswordRoutes,
    mfaTotpRoutes,
    mfaLoginRoutes,
    passkeyRoutes,
    passkeyLoginRoutes,
    webAuditRoutes,
    problemRoutes,
    idempotentTokenRoutes,
  ];
  if (config.examplesEnabled) tables.push(webExampleRoutes);
  // The embedded mailbox's messages carry codes and reset links: readable in dev and test only.
  if (config.profile !== 'prod' && infra.mailbox !== null) tables.push(devMailboxRoutes(infra.mailbox));
  const routes = mount(routeKitOf(container, config, infra, LOGIN_TYPE), tables);
  return assembleApp({ app: LOGIN_TYPE, config, infra, container, routes, responder: new ProblemResponder(config.problemBaseUri) });
}
