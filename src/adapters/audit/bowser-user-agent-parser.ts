/**
 * User agents read by bowser (MIT; maintained, typed, no dependencies). ua-parser-js is not used:
 * its version 2 is AGPL-3.0, and version 1 is no longer developed. Only names are kept: the
 * browser's name and major version, the OS name (and Windows / macOS version name), the device type.
 */
import Bowser from 'bowser';
import type { ParsedUserAgent } from '../../application/audit/security-event';
import type { UserAgentParser } from '../../application/ports/user-agent-parser';

const UNKNOWN: ParsedUserAgent = { os: 'unknown', browser: 'unknown', deviceType: 'unknown' };

/** Long enough for any real browser's header; a longer one is read up to here (bowser's expressions stay linear). */
const MAX_LENGTH = 512;

export class BowserUserAgentParser implements UserAgentParser {
  parse(userAgent: string): ParsedUserAgent {
    const ua = userAgent.slice(0, MAX_LENGTH);
    if (ua.trim() === '') return UNKNOWN;
    try {
      const r = Bowser.parse(ua);
      const major = r.browser.version?.split('.')[0];
      const browser = r.browser.name ? (major ? `${r.browser.name} ${major}` : r.browser.name) : 'unknown';
      const osVersion = r.os.versionName ?? r.os.version?.split('.')[0];
      const os = r.os.name ? (osVersion ? `${r.os.name} ${osVersion}` : r.os.name) : 'unknown';
      return { os, browser, deviceType: r.platform.type ?? 'unknown' };
    } catch {
      return UNKNOWN;
    }
  }
}
