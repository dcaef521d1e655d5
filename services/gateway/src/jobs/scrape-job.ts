import {
  type DocumentData,
  type PageOptions,
  type PageSecrets,
  type PayloadInputOf,
  pageCredits,
} from '@wcs/queues';
import type { AuthContext, GatewayDeps } from '../deps';
import type { JobClock, WorkerTimings } from '../middleware/server-timing';
import type { CallerResponse } from './caller-gone';
import { runChargedJob } from './charged-job';

/** A `scrape` job's own fields; the request id, account, deadline and page options are added here. */
export type ScrapeJobFields = Omit<
  PayloadInputOf<'scrape'>,
  'requestId' | 'accountId' | 'page' | 'timeoutMs'
>;

/** What one document request (a scrape of a URL, or of an uploaded file) answers. */
export interface DocumentAnswer {
  requestId: string;
  data: DocumentData;
  timings?: WorkerTimings | undefined;
  creditsUsed: number;
}

/**
 * One document through the `scrape` queue, billed: 1 credit (+5 with the `summary` format:
 * pageCredits), charged to the account and the caller's key up front and refunded if the job
 * fails. A billed failure (SELECTOR_TOO_EXPENSIVE) comes before the summary's model call, so it
 * keeps the page's 1 credit only. The gateway waits a small margin over the job's own budget so
 * the worker's timeout error wins the race.
 */
export async function runScrapeJob(
  deps: GatewayDeps,
  auth: AuthContext,
  job: {
    requestId: string;
    timeoutMs: number;
    options: PageOptions;
    secrets?: PageSecrets | undefined;
    fields: ScrapeJobFields;
  },
  caller?: CallerResponse,
  clock?: JobClock,
): Promise<DocumentAnswer> {
  const { requestId, timeoutMs, options } = job;
  const cost = pageCredits(options);
  const result = await runChargedJob(deps, {
    accountId: auth.accountId,
    keyId: auth.keyId,
    requestId,
    secrets: job.secrets,
    cost,
    billedFailureCost: 1,
    reason: 'scrape',
    refundReason: 'scrape_refund',
    queue: 'scrape',
    payload: {
      ...job.fields,
      requestId,
      accountId: auth.accountId,
      timeoutMs,
      ...(Object.keys(options).length > 0 ? { page: options } : {}),
    },
    waitMs: timeoutMs + 5_000,
    ...(caller ? { caller } : {}),
    ...(clock ? { clock } : {}),
  });
  return { requestId, data: result.data, timings: result.timings, creditsUsed: cost };
}
