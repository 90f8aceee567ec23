/** Work over many items (a user's 10,000 sessions) in bounded chunks that never hold the event loop. */

/** Sessions a bulk end (logout-all, kick-all) hands the store at once; the event loop is yielded between chunks. */
export const BULK_CHUNK = 500;

/** Chunks in flight at once: the store works on one while the next is sent and the previous one's reply is read. */
export const CHUNKS_IN_FLIGHT = 2;

/**
 * Runs `each` over `items` BULK_CHUNK at a time, CHUNKS_IN_FLIGHT chunks at once, yielding the event
 * loop (setImmediate) between rounds.
 */
export async function inChunks<T>(items: readonly T[], each: (chunk: readonly T[]) => Promise<void>, size = BULK_CHUNK): Promise<void> {
  const round = size * CHUNKS_IN_FLIGHT;
  for (let i = 0; i < items.length; i += round) {
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const chunks: Array<readonly T[]> = [];
    for (let j = i; j < Math.min(items.length, i + round); j += size) chunks.push(items.slice(j, j + size));
    await Promise.all(chunks.map(each));
  }
}
