/**
 * One typed, validated configuration.
 *
 * Sources, later wins: built-in defaults (never secrets) -> config/application.yml ->
 * config/application-<profile>.yml -> environment variables. The profile comes from APP_PROFILE
 * (dev | test | prod, default dev). An environment variable is the key upper-cased with '.' and
 * '-' turned into '_' (svc.rsa-private-key -> SVC_RSA_PRIVATE_KEY). Lists in the environment
 * are comma-separated; maps (svc.security.sign.apps) are JSON objects.
 *
 * Every problem is collected and reported at once, each naming its key. One thing is set aside
 * rather than refused: a packaged profile's svc.security.sign.schemes entries for apps the
 * operator's svc.security.sign.apps does not contain (dropped with a warning at start).
 */
export { CONFIG_KEYS, envNameOf, PROFILES, type ConfigKey, type Profile } from './keys';
export { ConfigError, type AppConfig, type KeyOrigin, type LoadOptions, type RedisSettings } from './app-config';
export { DEFAULT_CONFIG_DIR, loadConfig } from './load';
export { configWarnings } from './cross-checks';
export { servedAppChecks, type ServedApp } from './served-apps';
