/** A Logger that keeps every call, for tests that assert what was (and was not) logged. */
import type { Logger } from '../../src/application/ports/logger';

export interface LoggedLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly obj: object;
  readonly msg?: string;
}

export function recordingLogger(): Logger & { readonly lines: LoggedLine[] } {
  const lines: LoggedLine[] = [];
  const at =
    (level: LoggedLine['level']) =>
    (obj: object, msg?: string): void =>
      void lines.push({ level, obj, ...(msg === undefined ? {} : { msg }) });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
