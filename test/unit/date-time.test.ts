/** The session expiry's and lists' time format, from one formatter per zone. */
import assert from 'node:assert/strict';
import { formatDateTime } from '../../src/application/shared/date-time';

describe('formatDateTime', () => {
  const at = Date.UTC(2026, 10, 24, 23, 5, 9, 999);

  it('writes yyyy/MM/dd HH:mm:ss (24 h) in the zone asked for, each zone its own', () => {
    assert.equal(formatDateTime(at, 'UTC'), '2026/11/24 23:05:09');
    assert.equal(formatDateTime(at, 'Asia/Shanghai'), '2026/11/25 07:05:09');
    assert.equal(formatDateTime(at, 'UTC'), '2026/11/24 23:05:09');
    assert.equal(formatDateTime(Date.UTC(2026, 0, 1, 0, 0, 0), 'America/New_York'), '2025/12/31 19:00:00');
  });

  it('a zone Intl does not know throws, every time', () => {
    assert.throws(() => formatDateTime(at, 'Mars/Olympus_Mons'), RangeError);
    assert.throws(() => formatDateTime(at, 'Mars/Olympus_Mons'), RangeError);
  });
});
