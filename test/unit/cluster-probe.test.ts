import assert from 'node:assert/strict';
import { parseClusterNodes } from '../../src/adapters/redis/cluster-probe';

describe('CLUSTER NODES parsing (cluster health details)', () => {
  const text = [
    '07c37dfeb235213a872192d90877d0cd55635b91 127.0.0.1:30004@31004,node-4 slave ' +
      'e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca 0 1426238317239 4 connected',
    '67ed2db8d677e59ec4a4cefb06858cf2a1a89fa1 127.0.0.1:30002@31002 master - 0 1426238316232 2 connected 5461-10922',
    '292f8b365bb7edb5e285caf0b7e6ddc7265d2f4f 127.0.0.1:30003@31003 master,fail - 0 1426238318243 3 connected 10923-16383',
    'e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca ::1:30001@31001 myself,master - 0 0 1 connected ' +
      '0-5459 5460 [5461->-67ed2db8d677e59ec4a4cefb06858cf2a1a89fa1]',
    '',
  ].join('\n');

  it(
    'reads id, address (IPv6 in brackets, hostname dropped), role, master, slot ranges ' + '(migrating ones left out) and the fail flag',
    () => {
      assert.deepEqual(parseClusterNodes(text), [
        {
          id: '07c37dfeb235213a872192d90877d0cd55635b91',
          address: '127.0.0.1:30004',
          role: 'replica',
          masterId: 'e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca',
          slots: [],
          failing: false,
        },
        {
          id: '67ed2db8d677e59ec4a4cefb06858cf2a1a89fa1',
          address: '127.0.0.1:30002',
          role: 'master',
          masterId: null,
          slots: [[5461, 10922]],
          failing: false,
        },
        {
          id: '292f8b365bb7edb5e285caf0b7e6ddc7265d2f4f',
          address: '127.0.0.1:30003',
          role: 'master',
          masterId: null,
          slots: [[10923, 16383]],
          failing: true,
        },
        {
          id: 'e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca',
          address: '[::1]:30001',
          role: 'master',
          masterId: null,
          slots: [
            [0, 5459],
            [5460, 5460],
          ],
          failing: false,
        },
      ]);
    },
  );
});
