import { ContentPool } from './content-pool';
import { WARM_UP_PAGE_KINDS } from './content-warm-up-pages';

/**
 * Writes the content threads' code cache beside the thread bundle (content-worker.cjs), from a
 * thread of a real pool: V8 accepts a cache only under the flags it was made with, and the pool
 * sets one of its own before it starts threads. The build runs this in a process started with
 * the services' node flags (scripts/bundle-thread.mjs). Resolves to the cache's size in bytes.
 */
export async function writeContentThreadCache(): Promise<number> {
  const pool = new ContentPool({ threads: 1, idleTimeoutMs: 1_000, taskTimeoutMs: 120_000, heapMb: 1_024 });
  try {
    return await pool.control<number>({ writeCodeCache: { pages: WARM_UP_PAGE_KINDS } });
  } finally {
    await pool.close();
  }
}
