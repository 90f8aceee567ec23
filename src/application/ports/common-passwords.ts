/**
 * The list of common and breached passwords a new password may not be on (ASVS 5.0 6.2.4). Looked
 * up in constant time; the list is loaded once per process.
 */
export interface CommonPasswords {
  /** Whether `password` is on the list, compared lower-cased (`PassWord1` matches `password1`). */
  isCommon(password: string): boolean;
}
