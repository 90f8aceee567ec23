import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bufferedDestination } from '../../src/adapters/logging/pino-logger';

describe('bufferedDestination (batched asynchronous log writes)', () => {
  const tmp = (): string => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ag-log-')), 'out.log');

  it('writes every line, in order, across many batches, once flushed', async () => {
    const file = tmp();
    const dest = bufferedDestination(file, 1000, 512);
    const expected: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const line = `{"i":${i},"pad":"${'é'.repeat(i % 37)}"}\n`;
      expected.push(line);
      dest.write(line);
    }
    await new Promise<void>((resolve, reject) => dest.flush((err) => (err ? reject(err) : resolve())));
    assert.equal(fs.readFileSync(file, 'utf8'), expected.join(''));
  });

  it('a batch smaller than the minimum still reaches the file within the flush interval', async () => {
    const file = tmp();
    const dest = bufferedDestination(file, 20, 1 << 20);
    dest.write('{"only":"line"}\n');
    const deadline = Date.now() + 2000;
    while (Date.now() < deadline && (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') === ''))
      await new Promise((r) => setTimeout(r, 10));
    assert.equal(fs.readFileSync(file, 'utf8'), '{"only":"line"}\n');
  });

  it('many destinations share one exit listener; close() writes what is pending', async () => {
    const before = process.listenerCount('exit');
    const file = tmp();
    const dests = Array.from({ length: 20 }, () => bufferedDestination(file, 60_000, 1 << 20));
    assert.ok(process.listenerCount('exit') <= before + 1);
    await Promise.all(dests.map((d) => d.ready())); // the files open asynchronously
    dests[0]?.write('{"closed":true}\n');
    for (const d of dests) d.close();
    assert.equal(fs.readFileSync(file, 'utf8'), '{"closed":true}\n');
  });

  it('flushSync writes the pending lines synchronously (shutdown paths)', async () => {
    const file = tmp();
    const dest = bufferedDestination(file, 60_000, 1 << 20);
    await dest.ready(); // the file opens asynchronously
    dest.write('{"a":1}\n');
    dest.write('{"b":2}\n');
    dest.flushSync();
    assert.equal(fs.readFileSync(file, 'utf8'), '{"a":1}\n{"b":2}\n');
  });
});
