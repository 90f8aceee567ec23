/**
 * What a contract suite needs from the adapter under test. Each test gets a fresh fixture
 * (a new store, or a new key prefix), so no test depends on another or on their order.
 */
import type { FakeClock } from '../support/fake-clock';

export interface StoreFixture<S> {
  readonly store: S;
  /** The app clock: the source of every `now` the tests pass to the store. */
  readonly clock: FakeClock;
  /**
   * Lets `ms` pass for the store's own TTLs: moves the clock and, for a real server whose
   * TTLs run on its own time, also waits `ms` (keep them to a few tens of ms).
   */
  elapse(ms: number): Promise<void>;
  /** Releases what the fixture created (timers, keys under its prefix). */
  cleanup(): Promise<void>;
  /**
   * A second instance of the store on the same data, as another process has it (its own client),
   * where the adapter can have one (Redis); absent: the store lives in one process (memory).
   */
  readonly twin?: S;
}

export type MakeFixture<S> = () => Promise<StoreFixture<S>>;

/** Registers beforeEach/afterEach in the current describe; returns the current test's fixture. */
export function useFixture<S>(make: MakeFixture<S>): () => StoreFixture<S> {
  let current: StoreFixture<S> | undefined;
  beforeEach(async () => {
    current = await make();
  });
  afterEach(async () => {
    await current?.cleanup();
    current = undefined;
  });
  return () => {
    if (current === undefined) throw new Error('fixture used outside a test');
    return current;
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
