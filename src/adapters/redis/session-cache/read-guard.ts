/**
 * Which replies of the tracking connection may fill the cache. A reply and the invalidation of a
 * write that follows it travel on two connections, so the process may see them in either order:
 * a reply is cached only when no invalidation of its key, and no flush, was processed between
 * the moment the read was sent and the reply. Concurrent misses of one key share one read, but
 * only while no invalidation of that key has been processed since it was sent (a request that
 * arrives after an invalidation must see a read sent after it).
 */

interface SharedRead {
  readonly gen: number;
  readonly epoch: number;
  readonly result: Promise<unknown>;
}

interface Flight {
  readers: number;
  /** Invalidations of the key processed while reads of it were in flight. */
  gen: number;
  shared?: SharedRead;
}

export interface GuardedRead<T> {
  readonly value: T;
  /** No invalidation of the key and no flush was processed while the read was in flight. */
  readonly cacheable: boolean;
}

export class ReadGuard {
  private epoch = 0;
  private readonly flights = new Map<string, Flight>();

  /** Reads `key` with `load`, or joins a read of it still current. */
  async read<T>(key: string, load: () => Promise<T>): Promise<GuardedRead<T>> {
    let flight = this.flights.get(key);
    if (flight === undefined) {
      flight = { readers: 0, gen: 0 };
      this.flights.set(key, flight);
    }
    flight.readers++;
    try {
      let shared = flight.shared;
      if (shared === undefined || shared.gen !== flight.gen || shared.epoch !== this.epoch) {
        shared = { gen: flight.gen, epoch: this.epoch, result: load() };
        flight.shared = shared;
      }
      const value = (await shared.result) as T;
      return { value, cacheable: shared.gen === flight.gen && shared.epoch === this.epoch };
    } finally {
      flight.readers--;
      if (flight.readers === 0) this.flights.delete(key);
    }
  }

  /** An invalidation of `key` was processed: reads of it in flight must not be cached. */
  invalidate(key: string): void {
    const flight = this.flights.get(key);
    if (flight !== undefined) flight.gen++;
  }

  /** The cache was flushed (or the link changed): no read in flight may be cached. */
  flush(): void {
    this.epoch++;
  }

  /** Keys with reads in flight (tests). */
  get inFlight(): number {
    return this.flights.size;
  }
}
