/** The problem pages of the reasons a session is refused for, or a login for the session policy (problem-pages.ts). */
import type { Reason } from '../../domain/errors';

type SessionReason = Extract<
  Reason,
  | 'token-missing'
  | 'token-bad-prefix'
  | 'token-invalid'
  | 'token-expired'
  | 'token-frozen'
  | 'token-kicked-out'
  | 'token-replaced'
  | 'already-logged-in'
>;

/** Structurally a ProblemPage (problem-pages.ts imports this file, so it is not imported back). */
export const SESSION_PROBLEM_PAGES: Readonly<Record<SessionReason, { readonly what: string; readonly todo: string }>> = {
  'token-missing': {
    what: 'The endpoint requires a login and no access token was sent.',
    todo: 'Log in and send the access token as "Authorization: Bearer <token>".',
  },
  'token-bad-prefix': {
    what: 'The Authorization header does not use the Bearer scheme.',
    todo: 'Send the access token as "Authorization: Bearer <token>".',
  },
  'token-invalid': {
    what: 'The access token is unknown: logged out (or ended as the oldest of too many sessions), rotated, or never issued here.',
    todo: 'Use the refresh token to get a new access token; if that fails too, log in again.',
  },
  'token-expired': {
    what: 'The access token has reached the end of its lifetime.',
    todo: 'Use the refresh token to get a new access token, or log in again.',
  },
  'token-frozen': {
    what: 'The session was idle for longer than the service allows.',
    todo: 'Log in again (or refresh, if your refresh token is still valid).',
  },
  'token-kicked-out': {
    what: 'The session was ended from elsewhere (an administrator, its user on another device, or as the oldest of too many sessions).',
    todo: 'Log in again.',
  },
  'token-replaced': {
    what: 'A newer login of the account replaced this session (one session per account or device type), or it was the oldest of too many.',
    todo: 'Log in again; this logs the other device out.',
  },
  'already-logged-in': {
    what: 'The account is logged in on another device, and the session there stays (session.replaced-login-exit-mode=NEW_DEVICE).',
    todo: 'Log out on the other device (or let its session end), then log in here.',
  },
};
