/**
 * The example handlers' records (orders, payments, notices): appended to a per-owner list in
 * the shared store, so tests can count exactly what was created, across instances.
 */

export interface ExampleRecord {
  readonly id: string;
  readonly ownerId: string;
  readonly createdAt: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** Records are examples: a list keeps its newest 1000 and disappears a day after its last write. */
export const MAX_RECORDS = 1000;
export const RETENTION_MS = 24 * 3600 * 1000;

export const listKey = (collection: string, ownerId: string): string => `examples:${collection}:${encodeURIComponent(ownerId)}`;
