import { inject, injectable } from 'inversify';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../ports/clock';
import type { ListStore } from '../ports/list-store';
import { TOKENS } from '../tokens';
import { listKey, MAX_RECORDS, RETENTION_MS, type ExampleRecord } from './example-record';
import type { Reason } from '../../domain/errors';

@injectable()
export class CreateExampleRecord {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['store-unavailable'];

  constructor(
    @inject(TOKENS.ListStore) private readonly lists: ListStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async execute(input: {
    readonly collection: string;
    readonly ownerId: string;
    readonly data: Readonly<Record<string, unknown>>;
  }): Promise<ExampleRecord> {
    const record: ExampleRecord = {
      id: randomUUID(),
      ownerId: input.ownerId,
      createdAt: new Date(this.clock.now()).toISOString(),
      data: input.data,
    };
    await this.lists.append(listKey(input.collection, input.ownerId), JSON.stringify(record), MAX_RECORDS, RETENTION_MS);
    return record;
  }
}
