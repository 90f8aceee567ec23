/** `audit verify`: walks a stored audit log and reports the first break of its hash chain (docs/audit.md#tamper-evidence). */
import { loginType, parse, str } from './args';
import type { CliDeps } from './deps';
import { CliFailure, UsageError, type CliIo } from './io';

/** ms since epoch, or an ISO 8601 time. */
function instant(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  const ms = /^\d{1,15}$/.test(text) ? Number(text) : Date.parse(text);
  if (Number.isNaN(ms)) throw new UsageError(`--${name} must be ms since epoch or an ISO 8601 time, got "${text}"`);
  return ms;
}

export async function auditCommand(io: CliIo, argv: readonly string[], deps: () => Promise<CliDeps>): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub !== 'verify') throw new UsageError(sub === undefined ? 'audit: expected "verify"' : `audit: unknown subcommand "${sub}"`);
  const { values, positionals } = parse(rest, { log: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } }, 1);
  const type = loginType(positionals[0] ?? 'admin');
  const log = str(values, 'log') ?? 'login';
  if (log !== 'login' && log !== 'operation') throw new UsageError(`--log must be login or operation, got "${log}"`);
  const from = instant(str(values, 'from'), 'from');
  const to = instant(str(values, 'to'), 'to');
  const r = await (
    await deps()
  ).verifyAuditChain(type, log, { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) });
  const what = `the ${type} ${log} log`;
  if (r.firstBreak !== null) {
    const b = r.firstBreak;
    throw new CliFailure(
      `${what}: chain broken at ${b.position} (event ${b.eventId ?? 'unreadable'}): ` +
        `it does not follow from ${b.after ?? 'the entry before it'}; ` +
        `that entry or this one was changed, or entries between them removed (${r.checked} checked)`,
    );
  }
  if (r.checked === 0) {
    io.out(`${what}: no event in the range`);
    return;
  }
  const start = r.fromStart ? 'from the start of the log' : `from ${r.first} (the anchor: taken as given)`;
  io.out(`${what}: ${r.checked} events, chain intact ${start} to ${r.last}`);
}
