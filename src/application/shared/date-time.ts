/**
 * One formatter per time zone, made once per process: building an Intl.DateTimeFormat costs far more
 * than formatting with one (a listing formats three times per row).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** `yyyy/MM/dd HH:mm:ss` in an IANA zone (what vue-pure-admin parses with `new Date(expires)`). */
export function formatDateTime(ms: number, timeZone: string): string {
  const p: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of formatterFor(timeZone).formatToParts(ms)) p[part.type] = part.value;
  const two = (v: string | undefined) => v ?? '00';
  return `${p.year ?? '0000'}/${two(p.month)}/${two(p.day)} ${two(p.hour)}:${two(p.minute)}:${two(p.second)}`;
}
