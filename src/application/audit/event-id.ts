/**
 * UUIDv7 (RFC 9562 section 5.7): 48 bits of Unix time in ms, then 12 bits of a counter seeded at random each
 * ms (the RFC's "fixed-length dedicated counter", method 1) and 62 random bits. Ids made by one
 * generator sort in the order they were made, even within one ms or if the clock steps back;
 * ids of several instances sort by their ms. Written here rather than taken from a package: it is a
 * dozen lines over node:crypto, and the packages that have it are ES modules only.
 */
import { randomBytes } from 'node:crypto';

const COUNTER_MAX = 0xfff;

export class UuidV7 {
  private lastMs = -1;
  private counter = 0;

  /** A new id at `nowMs` (the app clock's time), never below the last one this generator made. */
  next(nowMs: number): string {
    let ms = Math.max(0, Math.floor(nowMs));
    if (ms > this.lastMs) {
      this.counter = randomBytes(2).readUInt16BE(0) & 0x3ff; // room for 3,000 more ids in this ms
    } else {
      ms = this.lastMs;
      this.counter++;
      if (this.counter > COUNTER_MAX) {
        ms++;
        this.counter = 0;
      }
    }
    this.lastMs = ms;
    const bytes = randomBytes(16);
    bytes.writeUIntBE(ms, 0, 6);
    bytes[6] = 0x70 | (this.counter >> 8);
    bytes[7] = this.counter & 0xff;
    bytes[8] = 0x80 | ((bytes[8] as number) & 0x3f);
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}

/** The ms of a UUIDv7 (its first 48 bits). */
export function uuidV7Time(id: string): number {
  return parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}
