/** Batches end at `done`; crawls at `done` or `failed` (README). Anything else is still running. */
export function batchFinished(status: string): boolean {
  return status === 'done';
}

export function crawlFinished(status: string): boolean {
  return status === 'done' || status === 'failed';
}

export const POLL_MS = 2000;
