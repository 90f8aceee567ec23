/** Work over many items (a user's 10,000 sessions) in bounded chunks that never hold the event loop. */

/** Sessions a bulk end (logout-all, kick-all) hands the store at once; the event loop is yielded between chunks. */
export const BULK_CHUNK = 500;

/** Runs `each` over `items` BULK_CHUNK at a time, in order, yielding the event loop (setImmediate) between chunks. */
export async function inChunks<T>(items: readonly T[], each: (chunk: readonly T[]) => Promise<void>, size = BULK_CHUNK): Promise<void> {
  for (let i = 0; i < items.length; i += size) {
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    await each(items.slice(i, i + size));
  }
}
