/** Reads a User-Agent header into the names the audit trail keeps (never the header itself). */
import type { ParsedUserAgent } from '../audit/security-event';

export interface UserAgentParser {
  parse(userAgent: string): ParsedUserAgent;
}
