/** ListStore in memory: short lists whose TTL is refreshed on every append, on the store clock. */
import type { Clock } from '../../application/ports/clock';
import type { ListStore } from '../../application/ports/list-store';
import { deadlineAfter, ExpiringMap, type Sweepable } from './expiring-map';

export class InMemoryListStore implements ListStore, Sweepable {
  private readonly lists: ExpiringMap<string[]>;

  constructor(private readonly clock: Clock) {
    this.lists = new ExpiringMap(clock);
  }

  async append(key: string, item: string, maxLength: number, ttlMs: number): Promise<number> {
    const items = this.lists.live(key)?.value ?? [];
    items.push(item);
    const keep = Math.max(1, Math.floor(maxLength));
    if (items.length > keep) items.splice(0, items.length - keep);
    this.lists.set(key, items, deadlineAfter(this.clock, ttlMs));
    return items.length;
  }

  async list(key: string): Promise<string[]> {
    return [...(this.lists.live(key)?.value ?? [])];
  }

  sweep(): number {
    return this.lists.sweep();
  }

  size(): number {
    return this.lists.size();
  }
}
