/**
 * The session cache belongs to the process, the metrics registries to its apps (both apps of
 * `npm start` share one cache): every registered app's metrics hear every cache event.
 */
import type { SessionCacheMetrics } from './cached-session-store';

export class SessionCacheMetricsFanout implements SessionCacheMetrics {
  private readonly sinks = new Set<SessionCacheMetrics>();
  private up = false;

  /** Adds an app's metrics; it learns the link's current state at once. */
  add(sink: SessionCacheMetrics): void {
    this.sinks.add(sink);
    sink.sessionCacheTracking(this.up);
  }

  sessionCacheLookup(result: 'hit' | 'miss' | 'bypass'): void {
    for (const s of this.sinks) s.sessionCacheLookup(result);
  }

  sessionCacheInvalidated(entries: number): void {
    for (const s of this.sinks) s.sessionCacheInvalidated(entries);
  }

  sessionCacheFlushed(reason: 'server-flush' | 'link-down'): void {
    for (const s of this.sinks) s.sessionCacheFlushed(reason);
  }

  sessionCacheTracking(up: boolean): void {
    this.up = up;
    for (const s of this.sinks) s.sessionCacheTracking(up);
  }
}
