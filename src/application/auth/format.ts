/** `yyyy/MM/dd HH:mm:ss` in an IANA zone (what vue-pure-admin parses with `new Date(expires)`). */
export function formatDateTime(ms: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const get = (t: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === t)?.value ?? '00';
  return `${get('year')}/${get('month')}/${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}

/** UTF-8 length: BCrypt reads at most 72 bytes, so longer passwords are refused, never truncated. */
export function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}
