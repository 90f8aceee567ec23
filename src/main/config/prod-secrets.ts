/**
 * The production rule: no default secrets and no in-memory store; every missing one is named. A key
 * that is simply required in prod says so in its declaration (`requiredInProd`); the rules here span keys.
 */
import { redisModeOf, storeBackendOf } from '../store-backends';
import type { AppConfig } from './app-config';
import { requiredInProdChecks } from './declared-rules';
import { named } from './keys';

/** A Redis password in every mode: in the URL or in svc.redis.password. */
function redisPasswordChecks(c: AppConfig): string[] {
  const { urlNamesServer } = redisModeOf(c.redis);
  if (urlNamesServer && c.redis.url === '') return ['svc.redis.url (SVC_REDIS_URL or REDIS_URL): required in prod, with its password'];
  if (c.redis.password !== '') return [];
  if (urlNamesServer) {
    return [
      'svc.redis.url (SVC_REDIS_URL or REDIS_URL): the URL carries no password; prod requires one ' +
        '(in the URL or in svc.redis.password / SVC_REDIS_PASSWORD)',
    ];
  }
  return [
    `svc.redis.password (SVC_REDIS_PASSWORD): required in prod in every mode (svc.redis.mode is ` +
      `${c.redis.mode}); or put it in svc.redis.url's credentials`,
  ];
}

export function prodSecretChecks(c: AppConfig): string[] {
  const p: string[] = [];
  if (c.profile !== 'prod') return p;
  if (c.directory === 'sql' && c.datasource.password === '') {
    p.push('svc.datasource.password (SVC_DATASOURCE_PASSWORD): required in prod when svc.directory=sql (no default secrets)');
  }
  if (!storeBackendOf(c).shared) p.push(`svc.store (SVC_STORE): "${c.store}" is refused in prod; set svc.store=redis`);
  p.push(...requiredInProdChecks(c));
  p.push(...redisPasswordChecks(c));
  if (c.raw['svc.web.require-verified-email'] && c.raw['svc.mail.smtp-url'].trim() === '') {
    p.push(
      `${named('svc.mail.smtp-url')}: required in prod while ${named('svc.web.require-verified-email')} is true: ` +
        'members could not receive the code that verifies their e-mail, so none could log in',
    );
  }
  if (c.sign.enabled && Object.keys(c.sign.apps).length === 0) {
    p.push(
      'svc.security.sign.apps (SVC_SECURITY_SIGN_APPS): required in prod while ' +
        'svc.security.sign.enabled=true (a JSON object {"<APP_KEY>":"<APP_SECRET>"})',
    );
  }
  return p;
}
