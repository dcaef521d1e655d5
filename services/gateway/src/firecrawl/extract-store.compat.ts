/**
 * Firecrawl's extract is a job (start, then poll); ours answers in one request. The compat layer
 * runs the native extract in the background and keeps its outcome here, in Redis, for 24 hours
 * under the id it answered, with the owner's account: another account's id is the same 404 as an
 * unknown one. A job whose gateway died before it finished reads as failed once its deadline passed.
 */
import type { RedisClient } from '@wcs/queues';
import { z } from 'zod';

export const EXTRACT_RESULT_TTL_SECONDS = 24 * 3600;

const stored = z.object({
  accountId: z.string(),
  status: z.enum(['processing', 'completed', 'failed']),
  /** After this (epoch ms) a `processing` job is reported failed: its worker is gone. */
  deadlineAt: z.number(),
  expiresAt: z.string(),
  data: z.record(z.string(), z.unknown()).optional(),
  error: z.string().optional(),
  code: z.string().optional(),
  creditsUsed: z.number().optional(),
});
export type StoredExtract = z.infer<typeof stored>;

const keyOf = (id: string) => `fc:extract:${id}`;

export class ExtractStore {
  constructor(private readonly redis: RedisClient) {}

  async put(id: string, job: StoredExtract): Promise<void> {
    await this.redis.set(keyOf(id), JSON.stringify(job), 'EX', EXTRACT_RESULT_TTL_SECONDS);
  }

  /** The job if `accountId` owns it; undefined for unknown, expired and other accounts' ids. */
  async get(accountId: string, id: string): Promise<StoredExtract | undefined> {
    const raw = await this.redis.get(keyOf(id));
    if (!raw) return undefined;
    const parsed = stored.safeParse(JSON.parse(raw));
    if (!parsed.success || parsed.data.accountId !== accountId) return undefined;
    const job = parsed.data;
    if (job.status === 'processing' && Date.now() > job.deadlineAt) {
      return {
        ...job,
        status: 'failed',
        error: 'The extract did not finish (the service restarted); retry',
        code: 'INTERNAL',
      };
    }
    return job;
  }
}
