import { inject, injectable } from 'inversify';
import type { ListStore } from '../ports/list-store';
import { TOKENS } from '../tokens';
import { listKey, type ExampleRecord } from './example-record';
import type { Reason } from '../../domain/errors';

@injectable()
export class ListExampleRecords {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['store-unavailable'];

  constructor(@inject(TOKENS.ListStore) private readonly lists: ListStore) {}

  async execute(input: { readonly collection: string; readonly ownerId: string }): Promise<ExampleRecord[]> {
    return (await this.lists.list(listKey(input.collection, input.ownerId))).map((s) => JSON.parse(s) as ExampleRecord);
  }
}
