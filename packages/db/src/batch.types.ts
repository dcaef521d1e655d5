import type { Prisma } from './generated/prisma/client';
import type { JobWebhookConfig } from './job-webhook.types';
export type BatchStatus = 'pending' | 'processing' | 'done';
export type BatchItemStatus = 'queued' | 'running' | 'done' | 'failed';

export interface BatchItemView {
  itemId: string;
  position: number;
  /** caller-supplied id, echoed back in results */
  clientId: string | null;
  url: string;
  status: BatchItemStatus;
  /** { markdown, html, text, json?, metadata } when done */
  result: unknown | null;
  error: string | null;
  errorCode: string | null;
}

export interface BatchWithItems {
  batchId: string;
  accountId: string;
  status: BatchStatus;
  total: number;
  completed: number;
  failed: number;
  /** charged − refunded (failed items are refunded) */
  creditsUsed: number;
  format: string;
  onlyMainContent: boolean;
  createdAt: Date;
  /** A cancel stopped some of its items (they failed with code CANCELLED). */
  cancelled: boolean;
  /** Every item, or the page of them asked for (`BatchesRepository.getPage`). */
  items: BatchItemView[];
}

/** Which items a status read returns: those in `statuses`, by position; no `limit` = all, 0 = none. */
export interface BatchItemPage {
  statuses: BatchItemStatus[];
  skip: number;
  limit?: number;
}

/** What a worker needs to scrape one item, returned by startItem(). */
export interface StartedBatchItem {
  itemId: string;
  batchId: string;
  accountId: string;
  url: string;
  format: string;
  onlyMainContent: boolean;
  attempts: number;
  /** The batch's page options (validated by the worker against @wcs/queues' schema). */
  pageOptions: unknown;
  /** Headers and actions; null once the batch is done. */
  pageSecrets: unknown;
}

export interface NewBatch {
  accountId: string;
  /** The key that starts it: the charge counts against its limits, item refunds give back. */
  keyId?: string | undefined;
  items: Array<{ url: string; clientId?: string }>;
  format: string;
  onlyMainContent: boolean;
  /** Page options of every item (plain JSON); secrets are cleared when the batch is done. */
  pageOptions?: Prisma.InputJsonObject;
  pageSecrets?: Prisma.InputJsonObject;
  /** Credits of one item (default 1; the `summary` format adds the model's): charged up front, refunded per failed item. */
  creditsPerItem?: number;
  /** The batch's webhook (its `started` event commits with the batch). */
  webhook?: JobWebhookConfig;
}
