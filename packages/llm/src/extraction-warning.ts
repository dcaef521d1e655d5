/**
 * What an extraction that succeeded did not read, in words for the caller: the page was cut (past
 * EXTRACT_MAX_CHUNKS, or to the input budget when chunking is off), or some chunks failed and their
 * part of the page is missing from `data`. Undefined when the whole page was read.
 */
export interface ReadReport {
  truncated: boolean;
  /** Chunks sent. */
  chunks: number;
  /** Chunks the whole page needed (more than `chunks` when the cap cut it). */
  needed: number;
  failedChunks: number;
  /** The input budget of one call (tokens), for the message of a page cut to one call. */
  budgetTokens: number;
}

export function extractionWarning(r: ReadReport): string | undefined {
  const parts: string[] = [];
  if (r.truncated) {
    parts.push(
      r.needed > r.chunks
        ? `The page was cut: it needed ${r.needed} chunks and only the first ${r.chunks} (EXTRACT_MAX_CHUNKS) were read, so values past about ${Math.floor((r.chunks / r.needed) * 100)}% of the page are missing`
        : `The page was cut to the input budget (${r.budgetTokens} tokens): values past it are missing`,
    );
  }
  if (r.failedChunks > 0) {
    parts.push(
      `${r.failedChunks} of ${r.chunks} chunks failed (also when retried) and were left out: values in their part of the page may be missing`,
    );
  }
  return parts.length > 0 ? `${parts.join('. ')}.` : undefined;
}
