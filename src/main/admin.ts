/** Composition root of the admin app (port 8080, login type "admin", `{code, message, data}` envelope). */
import { generateEphemeralRsaKey, NodeRsaDecryptor, parseRsaPrivateKey } from '../adapters/crypto/rsa';
import { EnvelopeResponder } from '../adapters/koa/responders';
import type { RouteTable } from '../adapters/koa/route-kit';
import { adminAuditRoutes } from '../adapters/koa/routes/audit-routes';
import { adminAuthRoutes } from '../adapters/koa/routes/auth-routes';
import { adminMeRoutes } from '../adapters/koa/routes/me-routes';
import { adminSessionRoutes } from '../adapters/koa/routes/own-session-routes';
import { adminSpaRoutes } from '../adapters/koa/routes/spa-routes';
import { menuAdminRoutes } from '../adapters/koa/routes/menu-admin-routes';
import { roleAdminRoutes } from '../adapters/koa/routes/role-admin-routes';
import { adminPasswordRoutes } from '../adapters/koa/routes/password-routes';
import { mfaLoginRoutes } from '../adapters/koa/routes/mfa-login-routes';
import { mfaTotpRoutes } from '../adapters/koa/routes/mfa-totp-routes';
import { systemRoutes } from '../adapters/koa/routes/system-routes';
import { adminExampleRoutes } from '../adapters/koa/routes/example-routes';
import { idempotentTokenRoutes } from '../adapters/koa/routes/idempotency-routes';
import { tryItRoutes } from '../adapters/koa/routes/try-it-routes';
import { passkeyLoginRoutes, passkeyRoutes } from '../adapters/koa/routes/passkey-routes';
import type { AppConfig } from './config';
import { createContainer } from './container';
import { userAdminTables } from './directories';
import type { Infrastructure } from './infrastructure';
import { assembleApp, type BuiltApp } from './operations';
import { mount, routeKitOf } from './route-kit';

const LOGIN_TYPE = 'admin';

/** The configured RSA key, or (dev/test only: prod refuses to start without one) an ephemeral one. */
function rsaKeyFor(config: AppConfig, infra: Infrastructure) {
  if (config.rsaPrivateKey !== '') return parseRsaPrivateKey(config.rsaPrivateKey);
  if (config.profile === 'prod') throw new Error('svc.rsa-private-key is required in prod');
  if (config.profile === 'dev') {
    infra.log.warn(
      {},
      'svc.rsa-private-key is not set: generated an ephemeral 2048-bit RSA key (dev only; clients ' +
        'must re-fetch /auth/getConfig after a restart)',
    );
  }
  return generateEphemeralRsaKey();
}

export function buildAdminApp(config: AppConfig, infra: Infrastructure): BuiltApp {
  const rsa = new NodeRsaDecryptor(rsaKeyFor(config, infra), config.rsaPadding, infra.cryptoPool);
  const container = createContainer(config, infra, LOGIN_TYPE, {
    directory: infra.directories.admins,
    accounts: infra.directories.adminAccounts,
    rsa,
  });
  const tables: RouteTable[] = [
    adminAuthRoutes,
    adminMeRoutes,
    adminSessionRoutes,
    adminSpaRoutes,
    passkeyRoutes,
    adminPasswordRoutes,
    mfaTotpRoutes,
    mfaLoginRoutes,
    passkeyLoginRoutes,
    systemRoutes,
    adminAuditRoutes,
    menuAdminRoutes,
    roleAdminRoutes,
    idempotentTokenRoutes,
    ...userAdminTables(container),
  ];
  if (config.examplesEnabled) tables.push(adminExampleRoutes);
  if (config.tryItEnabled) tables.push(tryItRoutes);
  const routes = mount(routeKitOf(container, config, infra, LOGIN_TYPE), tables);
  return assembleApp({ app: LOGIN_TYPE, config, infra, container, routes, responder: new EnvelopeResponder() });
}
