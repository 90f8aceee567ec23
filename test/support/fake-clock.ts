import type { Clock } from '../../src/application/ports/clock';

/** A clock the test moves by hand. */
export class FakeClock implements Clock {
  constructor(private t = Date.UTC(2026, 0, 1, 0, 0, 0)) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
  set(ms: number): void {
    this.t = ms;
  }
}
