/**
 * One formatter per time zone, made at its first use: building an Intl.DateTimeFormat costs about
 * a hundred microseconds (its locale and zone data are resolved anew each time), formatting with
 * one a few, and every login formats its session's expiry. The zones are the configuration's
 * (svc.time-zone, checked at start), so there are few; one Intl does not know throws and is not kept.
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
  const parts = formatterFor(timeZone).formatToParts(new Date(ms));
  const get = (t: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === t)?.value ?? '00';
  return `${get('year')}/${get('month')}/${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}
