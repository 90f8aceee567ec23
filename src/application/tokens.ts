/**
 * Dependency-injection identifiers of the ports and the settings. Use cases and services are
 * bound by their class, so they need no identifier here. Only src/main binds these.
 *
 * This module imports only port and settings types, never a use case, so the import graph
 * stays free of cycles.
 */
import type { interfaces } from 'inversify';
import type { AuthSettings } from './auth/auth-settings';
import type { IdempotencySettings } from './idempotency/idempotency-settings';
import type { TotpSettings } from './mfa/totp-settings';
import type { AccountStore } from './ports/account-store';
import type { AuditStore } from './ports/audit-store';
import type { AuditTrail } from './ports/audit-trail';
import type { CaptchaGenerator } from './ports/captcha-generator';
import type { CaptchaStore } from './ports/captcha-store';
import type { CommonPasswords } from './ports/common-passwords';
import type { Clock } from './ports/clock';
import type { HealthIndicator } from './ports/health-indicator';
import type { KeyValueStore } from './ports/key-value-store';
import type { ListStore } from './ports/list-store';
import type { Logger } from './ports/logger';
import type { Mailer } from './ports/mailer';
import type { WebAuthnVerifier } from './ports/webauthn-verifier';
import type { Metrics } from './ports/metrics';
import type { PasskeyStore } from './ports/passkey-store';
import type { PasswordHasher } from './ports/password-hasher';
import type { QrCodes } from './ports/qr-codes';
import type { RateLimitStore } from './ports/rate-limit-store';
import type { RsaDecryptor } from './ports/rsa-decryptor';
import type { SessionStore } from './ports/session-store';
import type { StoreHealth } from './ports/store-health';
import type { TotpAlgorithm } from './ports/totp-algorithm';
import type { TotpStore } from './ports/totp-store';
import type { UserAdministration } from './ports/user-administration';
import type { UserAgentParser } from './ports/user-agent-parser';
import type { UserDirectory } from './ports/user-directory';
import type { SessionSettings } from './session/session-settings';
import type { SignSettings } from './signing/sign-settings';
import type { AccountSettings } from './users/account-settings';
import type { MfaSettings } from './mfa/mfa-settings';
import type { MenuSettings } from './menus/menu-settings';
import type { MenuCatalogue } from './ports/menu-catalogue';
import type { RoleAdministration } from './ports/role-administration';

const id = <T>(name: string): interfaces.ServiceIdentifier<T> => Symbol.for(`authguard.${name}`);

export const TOKENS = {
  // time, logs, metrics
  Clock: id<Clock>('Clock'),
  Logger: id<Logger>('Logger'),
  Metrics: id<Metrics>('Metrics'),
  /** Security events (svc.audit.*): record returns at once, the sinks are written in batches later. */
  AuditTrail: id<AuditTrail>('AuditTrail'),
  // the store
  SessionStore: id<SessionStore>('SessionStore'),
  KeyValueStore: id<KeyValueStore>('KeyValueStore'),
  ListStore: id<ListStore>('ListStore'),
  RateLimitStore: id<RateLimitStore>('RateLimitStore'),
  CaptchaStore: id<CaptchaStore>('CaptchaStore'),
  /** Security events kept for search (the login and operation logs). */
  AuditStore: id<AuditStore>('AuditStore'),
  StoreHealth: id<StoreHealth>('StoreHealth'),
  /** Multi-bound: one binding per health component (store, user directory, ...). */
  HealthIndicator: id<HealthIndicator>('HealthIndicator'),
  // accounts
  /** The accounts of the app's login type (admin users on the admin app, members on the web app). */
  UserDirectory: id<UserDirectory>('UserDirectory'),
  /** Admin accounts (login type "admin"), whichever app the container belongs to. */
  AdminDirectory: id<UserDirectory>('AdminUserDirectory'),
  /** Web members (login type "web"). */
  MemberDirectory: id<UserDirectory>('MemberDirectory'),
  /** Role and enabled-flag changes of admin accounts; unbound when the directory is read-only. */
  UserAdministration: id<UserAdministration>('UserAdministration'),
  /** The admin SPA's menu tree (sys_menu, or the embedded directory's menus.yml): its routes and the roles' permissions. */
  MenuCatalogue: id<MenuCatalogue>('MenuCatalogue'),
  /** Roles of admin accounts and the menus they hold; writes refuse (directory-read-only) where they cannot be kept. */
  RoleAdministration: id<RoleAdministration>('RoleAdministration'),
  /** Password, state and e-mail changes of the app's accounts; bound to a refusing stand-in on a read-only directory. */
  AccountStore: id<AccountStore>('AccountStore'),
  /** The passkeys (WebAuthn credentials) of both login types' accounts. */
  PasskeyStore: id<PasskeyStore>('PasskeyStore'),
  /** The WebAuthn ceremonies' checks, for the relying party svc.webauthn.* names. */
  WebAuthnVerifier: id<WebAuthnVerifier>('WebAuthnVerifier'),
  /** Outgoing e-mail (SMTP or the embedded dev mailbox). */
  Mailer: id<Mailer>('Mailer'),
  /** TOTP factors of both login types, kept with the accounts (the SQL directory, or memory beside the file directory). */
  TotpStore: id<TotpStore>('TotpStore'),
  // crypto and captcha images
  PasswordHasher: id<PasswordHasher>('PasswordHasher'),
  /** The common and breached passwords a new password may not be (one list per process). */
  CommonPasswords: id<CommonPasswords>('CommonPasswords'),
  RsaDecryptor: id<RsaDecryptor>('RsaDecryptor'),
  CaptchaGenerator: id<CaptchaGenerator>('CaptchaGenerator'),
  /** RFC 6238 arithmetic (secrets, codes, otpauth URIs). */
  TotpAlgorithm: id<TotpAlgorithm>('TotpAlgorithm'),
  QrCodes: id<QrCodes>('QrCodes'),
  /** Reads a User-Agent header into OS, browser and device type (once per login, kept on the session). */
  UserAgentParser: id<UserAgentParser>('UserAgentParser'),
  // settings
  AuthSettings: id<AuthSettings>('AuthSettings'),
  SessionSettings: id<SessionSettings>('SessionSettings'),
  SignSettings: id<SignSettings>('SignSettings'),
  IdempotencySettings: id<IdempotencySettings>('IdempotencySettings'),
  AccountSettings: id<AccountSettings>('AccountSettings'),
  MfaSettings: id<MfaSettings>('MfaSettings'),
  TotpSettings: id<TotpSettings>('TotpSettings'),
  MenuSettings: id<MenuSettings>('MenuSettings'),
} as const;
