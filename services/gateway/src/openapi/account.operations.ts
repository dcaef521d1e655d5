import { z } from 'zod';
import {
  accountResponse,
  batchListResponse,
  batchResultResponse,
  batchResultsResponse,
  crawlListResponse,
  crawlResultResponse,
  crawlResultsResponse,
  dashboardSessionResponse,
  keyCreateResponse,
  keyListResponse,
  keyRevokeResponse,
  keyUpdateResponse,
  ledgerResponse,
  signOutResponse,
  usageResponse,
} from '../contract/account.responses';
import { capabilitiesResponse } from '../contract/capabilities.responses';
import { signInBody } from '../contract/dashboard-session.request';
import { keyCreateBody, keyUpdateBody } from '../contract/keys.request';
import { monitorCancelResponse } from '../contract/responses';
import type { OperationSpec } from './openapi.document';

const paging = (what: string, def: number, max: number): OperationSpec['params'] => ({
  skip: { in: 'query', description: `${what} to skip (default 0)` },
  limit: { in: 'query', description: `${what} per response (default ${def}, max ${max})` },
});

/**
 * OpenAPI entries of the account endpoints: what the dashboard reads and does, open to
 * any client with the account's key. Spread into OPERATIONS.
 */
export const ACCOUNT_OPERATIONS: OperationSpec[] = [
  {
    method: 'post',
    path: '/dashboard/api/session',
    summary:
      'Dashboard sign-in: exchange an API key for a session cookie (wcs_session, HttpOnly, SameSite=Strict)',
    description:
      'No Authorization header. The cookie then authenticates /v1 calls that carry no Authorization header; calls other than GET/HEAD also need X-CSRF-Token. 429 after DASHBOARD_SIGNIN_ATTEMPTS_PER_MINUTE failures per address and minute.',
    body: signInBody,
    success: { status: 200, description: 'the session', schema: dashboardSessionResponse },
    errors: [400, 401, 413, 429],
  },
  {
    method: 'get',
    path: '/dashboard/api/session',
    summary: 'The session of the wcs_session cookie (401 when expired, signed out or its key revoked)',
    success: { status: 200, description: 'the session', schema: dashboardSessionResponse },
    errors: [401],
  },
  {
    method: 'delete',
    path: '/dashboard/api/session',
    summary: 'Dashboard sign-out (X-CSRF-Token required); clears the cookie',
    success: { status: 200, description: 'signed out', schema: signOutResponse },
    errors: [403],
  },
  {
    method: 'get',
    path: '/v1/account',
    summary:
      'The account: balance, plan and its monthly credits, credits used in the last 30 days, rate-limit headroom',
    success: { status: 200, description: 'the account', schema: accountResponse },
    errors: [401, 429],
  },
  {
    method: 'get',
    path: '/v1/usage',
    summary: 'Net credits spent per UTC day and operation (charges minus refunds), every day present',
    params: { days: { in: 'query', description: 'days back, today included (default 30, max 366)' } },
    success: { status: 200, description: 'usage per day', schema: usageResponse },
    errors: [400, 401, 429],
  },
  {
    method: 'get',
    path: '/v1/ledger',
    summary: 'The credit ledger, newest first, keyset-paged, filterable by reason',
    params: {
      limit: { in: 'query', description: 'rows per page (default 50, max 500)' },
      cursor: { in: 'query', description: 'id of the last row of the previous page (from `next`)' },
      reason: {
        in: 'query',
        description: 'comma-separated ledger reasons (grant, scrape, scrape_refund, …)',
      },
    },
    success: { status: 200, description: 'a page of ledger rows', schema: ledgerResponse },
    errors: [400, 401, 429],
  },
  {
    method: 'get',
    path: '/v1/ledger.csv',
    summary: 'The whole (filtered) ledger as CSV: id,time,reason,amount,reference,balance_after',
    params: { reason: { in: 'query', description: 'comma-separated ledger reasons' } },
    success: { status: 200, description: 'CSV, newest first', schema: z.string(), contentType: 'text/csv' },
    errors: [400, 401, 429],
  },
  {
    method: 'get',
    path: '/v1/keys',
    summary: "The account's API keys (prefixes only), oldest first",
    success: { status: 200, description: 'the keys', schema: keyListResponse },
    errors: [401, 429],
  },
  {
    method: 'post',
    path: '/v1/keys',
    summary: 'Create an API key: the full key is in this response only',
    body: keyCreateBody,
    success: { status: 201, description: 'the new key', schema: keyCreateResponse },
    errors: [400, 401, 403, 413, 429],
  },
  {
    method: 'get',
    path: '/v1/capabilities',
    summary:
      'What this deployment offers (engines, documents/OCR, extract model, search, proxies, formats, page options, Firecrawl routes) and every limit a caller meets; free',
    success: { status: 200, description: 'the capabilities', schema: capabilitiesResponse },
    errors: [401, 429],
  },
  {
    method: 'patch',
    path: '/v1/keys/:id',
    summary:
      "Change a key's name or daily/monthly credit limits (null removes one). 403 when the calling key has a limit itself",
    params: { id: { in: 'path', description: 'key id' } },
    body: keyUpdateBody,
    success: { status: 200, description: 'the key as listed', schema: keyUpdateResponse },
    errors: [400, 401, 403, 404, 413, 429],
  },
  {
    method: 'delete',
    path: '/v1/keys/:id',
    summary:
      "Revoke an API key (idempotent); its dashboard sessions end. 409 for the account's last active key",
    params: { id: { in: 'path', description: 'key id' } },
    success: { status: 200, description: 'the revoked key', schema: keyRevokeResponse },
    errors: [401, 403, 404, 409, 429],
  },
  {
    method: 'get',
    path: '/v1/batch/scrape',
    summary: "The account's batches, newest first",
    params: paging('batches', 20, 100),
    success: { status: 200, description: 'a page of batches', schema: batchListResponse },
    errors: [400, 401, 429],
  },
  {
    method: 'get',
    path: '/v1/batch/scrape/:id/results',
    summary: "A batch's items by position (finished or not), without their documents",
    params: { id: { in: 'path', description: 'batch id' }, ...paging('items', 50, 500) },
    success: { status: 200, description: 'a page of items', schema: batchResultsResponse },
    errors: [400, 401, 404, 429],
  },
  {
    method: 'get',
    path: '/v1/batch/scrape/:id/results/:itemId',
    summary: 'One batch item with its stored document',
    params: {
      id: { in: 'path', description: 'batch id' },
      itemId: { in: 'path', description: 'item id (itemId of the results listing)' },
    },
    success: { status: 200, description: 'the item', schema: batchResultResponse },
    errors: [401, 404, 429],
  },
  {
    method: 'get',
    path: '/v1/crawl',
    summary: "The account's crawls, newest first",
    params: paging('crawls', 20, 100),
    success: { status: 200, description: 'a page of crawls', schema: crawlListResponse },
    errors: [400, 401, 429],
  },
  {
    method: 'get',
    path: '/v1/crawl/:id/results',
    summary: "Every page of a crawl's frontier in discovery order (any status), without documents",
    params: { id: { in: 'path', description: 'crawl id' }, ...paging('pages', 50, 500) },
    success: { status: 200, description: 'a page of crawl pages', schema: crawlResultsResponse },
    errors: [400, 401, 404, 429],
  },
  {
    method: 'get',
    path: '/v1/crawl/:id/results/:pageId',
    summary: 'One crawled page with its stored document',
    params: {
      id: { in: 'path', description: 'crawl id' },
      pageId: { in: 'path', description: 'page id (pageId of the results listing)' },
    },
    success: { status: 200, description: 'the page', schema: crawlResultResponse },
    errors: [401, 404, 429],
  },
  {
    method: 'post',
    path: '/v1/monitor/:id/pause',
    summary: 'Pause a monitor (checks stop until resumed; no credit is spent). 409 when cancelled',
    params: { id: { in: 'path', description: 'monitor id' } },
    success: { status: 200, description: 'the monitor', schema: monitorCancelResponse },
    errors: [401, 403, 404, 409, 429],
  },
  {
    method: 'post',
    path: '/v1/monitor/:id/resume',
    summary: 'Resume a monitor the user paused. 409 when cancelled or paused for lack of credits',
    params: { id: { in: 'path', description: 'monitor id' } },
    success: { status: 200, description: 'the monitor', schema: monitorCancelResponse },
    errors: [401, 403, 404, 409, 429],
  },
];
