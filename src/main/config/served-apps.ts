/**
 * Rules that depend on which Koa apps a process serves (`npm start`: both; `start:admin` /
 * `start:web`: one), checked by the process before it listens and by each app as it is built.
 */
import type { AppConfig } from './app-config';

export type ServedApp = 'admin' | 'web';

/** The registered signing apps that may sign with RFC 9421 (while signing is on). */
export function rfc9421Apps(c: AppConfig): string[] {
  if (!c.sign.enabled) return [];
  return Object.entries(c.sign.schemes)
    .filter(([app, schemes]) => Object.hasOwn(c.sign.apps, app) && schemes.includes('rfc9421'))
    .map(([app]) => app);
}

/**
 * Prod: every served app has a public base URL (svc.security.sign.public-urls) while some signing
 * app may sign with RFC 9421. Without one, `@target-uri` is built from the client's own `Host`
 * header, so a request signed for another host, or for the other app, verifies here. Dev and test
 * keep the `Host` fallback.
 */
export function servedAppChecks(c: AppConfig, apps: readonly ServedApp[]): string[] {
  if (c.profile !== 'prod') return [];
  const signers = rfc9421Apps(c);
  if (signers.length === 0) return [];
  const missing = apps.filter((app) => !Object.hasOwn(c.sign.publicUrls, app));
  if (missing.length === 0) return [];
  const example = JSON.stringify(
    Object.fromEntries(missing.map((app) => [app, `https://${app === 'admin' ? 'admin' : 'api'}.example.com`])),
  );
  return [
    `svc.security.sign.public-urls (SVC_SECURITY_SIGN_PUBLIC_URLS): required in prod for the ` +
      `${missing.join(' and ')} app${missing.length > 1 ? 's' : ''} while ` +
      `${signers.map((a) => `"${a}"`).join(', ')} may sign with rfc9421: ` +
      (`without it the RFC 9421 @target-uri comes from the client's Host header, so a request ` +
        `signed for another host or app verifies here; e.g. ${example}`),
  ];
}
