/**
 * The device type of a login (Sa-Token's `deviceType`, as in `StpUtil.login(id, "PC")`): a short
 * label the client chooses (`deviceType` in the login body) or, without one, derived from the
 * User-Agent. It decides which sessions a login replaces (`session.replaced-range`), which token
 * `session.is-share` hands back, and it is shown in session listings and selectable there.
 *
 * The rule for a login without `deviceType` (docs/sessions.md#device-types), on the User-Agent and
 * the platform the login's one User-Agent parse found (bowser's `desktop`, `mobile`, `tablet`, `tv`,
 * `bot`; the online list's OS and browser come from the same parse):
 *   no User-Agent                                              -> DEF (Sa-Token's default device type)
 *   not a browser (no `Mozilla/…`, `Opera/…`: a native app's HTTP
 *   stack such as okhttp, CFNetwork or Dalvik, a script), or a bot -> APP
 *   a browser on a phone or tablet                             -> H5
 *   any other browser                                          -> PC
 */

/** Sa-Token's default device type (`SaTokenConsts.DEFAULT_LOGIN_DEVICE_TYPE`): no User-Agent, or a session older than device types. */
export const DEFAULT_DEVICE_TYPE = 'DEF';

/** What a `deviceType` may be: 1-32 of A-Z a-z 0-9 _ - (compared exactly, case included, as Sa-Token does). */
export const DEVICE_TYPE_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

const BROWSER = /^(Mozilla|Opera)\//;
/** Phones and tablets: the mobile markers of Android, iOS, iPadOS, HarmonyOS, Windows Phone and the mobile browsers. */
const HANDHELD = /\b(Mobile|Android|iPhone|iPad|iPod|HarmonyOS|OpenHarmony|Windows Phone|Opera Mini|Opera Mobi|IEMobile|Silk)\b/;

/** The device type of a login without one in its body, from its User-Agent and the platform its parse found (if any). */
export function deviceTypeFromUserAgent(userAgent: string | undefined, platform?: string): string {
  const ua = (userAgent ?? '').trim();
  if (ua === '') return DEFAULT_DEVICE_TYPE;
  if (!BROWSER.test(ua) || platform === 'bot') return 'APP';
  return platform === 'mobile' || platform === 'tablet' || HANDHELD.test(ua) ? 'H5' : 'PC';
}

/** The device type a login's client chose or was given (`DEF` for one without). */
export function deviceTypeOf(client: { readonly deviceType?: string }): string {
  return client.deviceType ?? DEFAULT_DEVICE_TYPE;
}

/**
 * The device type of a stored session: its record's own `deviceType`, else `DEF`. Never the
 * record's `client.deviceType`: the release before device types stored the User-Agent's platform
 * there (bowser's `desktop`, `mobile`, `tablet`, `tv`, `bot`, `unknown`), which is no device type.
 */
export function sessionDeviceType(record: { readonly deviceType?: string }): string {
  return record.deviceType ?? DEFAULT_DEVICE_TYPE;
}
