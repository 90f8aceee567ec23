/**
 * The example handlers' records (orders, payments, notices): appended to a per-owner list in
 * the shared store, so tests can count exactly what was created, across instances.
 */
import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { Clock } from '../ports/clock';
import type { ListStore } from '../ports/list-store';
import { TOKENS } from '../tokens';

export interface ExampleRecord {
  readonly id: string;
  readonly ownerId: string;
  readonly createdAt: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** Records are examples: a list keeps its newest 1000 and disappears a day after its last write. */
const MAX_RECORDS = 1000;
const RETENTION_MS = 24 * 3600 * 1000;

const listKey = (collection: string, ownerId: string): string => `examples:${collection}:${encodeURIComponent(ownerId)}`;

@injectable()
export class CreateExampleRecord {
  constructor(
    @inject(TOKENS.ListStore) private readonly lists: ListStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async execute(input: { readonly collection: string; readonly ownerId: string; readonly data: Readonly<Record<string, unknown>> }): Promise<ExampleRecord> {
    const record: ExampleRecord = { id: randomUUID(), ownerId: input.ownerId, createdAt: new Date(this.clock.now()).toISOString(), data: input.data };
    await this.lists.append(listKey(input.collection, input.ownerId), JSON.stringify(record), MAX_RECORDS, RETENTION_MS);
    return record;
  }
}

@injectable()
export class ListExampleRecords {
  constructor(@inject(TOKENS.ListStore) private readonly lists: ListStore) {}

  async execute(input: { readonly collection: string; readonly ownerId: string }): Promise<ExampleRecord[]> {
    return (await this.lists.list(listKey(input.collection, input.ownerId))).map((s) => JSON.parse(s) as ExampleRecord);
  }
}
