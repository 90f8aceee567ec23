import type { Clock } from '../../src/application/ports/clock';

/** A clock the test moves by hand. */
export class FakeClock implements Clock {
  /** Milliseconds each read moves the clock on by (0: still), so a request's steps see time pass as on a real clock. */
  tickPerRead = 0;
  constructor(private t = Date.UTC(2026, 0, 1, 0, 0, 0)) {}
  now(): number {
    this.t += this.tickPerRead;
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
  set(ms: number): void {
    this.t = ms;
  }
}
