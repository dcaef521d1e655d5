import { monitorBody, monitorPatchBody } from '../contract/monitor.request';
import {
  monitorCancelResponse,
  monitorCreateResponse,
  monitorDetailResponse,
  monitorListResponse,
  webhookSecretResponse,
} from '../contract/responses';
import type { OperationSpec } from './openapi.document';

/** OpenAPI entries of /v1/monitor; spread into OPERATIONS. */
export const MONITOR_OPERATIONS: OperationSpec[] = [
  {
    method: 'post',
    path: '/v1/monitor',
    summary: 'Register a monitor (1 credit per check; the first check runs at once as the baseline)',
    description:
      'Bare domains get https://. webhookUrl must be an absolute http(s) URL; it receives one POST { monitorId, url, detectedAt, snapshot, diff: { added, removed, text }, judgement? } per detected change (judgement only with a goal; webhookFormat slack/discord post a channel message instead), signed with X-Signature (see docs/api.md "Webhooks").',
    body: monitorBody,
    success: {
      status: 201,
      description: 'the monitor',
      schema: monitorCreateResponse,
    },
    errors: [400, 401, 413, 415, 429],
  },
  {
    method: 'get',
    path: '/v1/monitor',
    summary: "List the account's monitors, newest first, paged",
    params: {
      skip: { in: 'query', description: 'monitors to skip (default 0)' },
      limit: { in: 'query', description: 'monitors per response (default 50, max 500)' },
    },
    success: {
      status: 200,
      description: 'a page of monitors',
      schema: monitorListResponse,
    },
    errors: [400, 401, 429],
  },
  {
    method: 'get',
    path: '/v1/monitor/:id',
    summary: 'Monitor detail: status, last/next check, detected changes with snapshots, webhook attempts',
    params: { id: { in: 'path', description: 'monitor id' } },
    success: {
      status: 200,
      description: 'the monitor and its history (newest first: 100 changes, 20 checks, 100 webhook attempts)',
      schema: monitorDetailResponse,
    },
    errors: [400, 401, 404, 429],
  },
  {
    method: 'patch',
    path: '/v1/monitor/:id',
    summary: 'Change a monitor: schedule (interval or cron + timezone), rules, goal, webhook (free)',
    description:
      'Only the fields given change, validated as on create. webhookUrl and goal take null to remove them, ignoreText [] to clear the rules. A new schedule takes effect at once (nextCheckAt is null until the scheduler has placed it); new ignoreText rules make the next check a new baseline. 409 for a cancelled monitor.',
    params: { id: { in: 'path', description: 'monitor id' } },
    body: monitorPatchBody,
    success: { status: 200, description: 'the changed monitor', schema: monitorCancelResponse },
    errors: [400, 401, 404, 409, 413, 415, 429],
  },
  {
    method: 'delete',
    path: '/v1/monitor/:id',
    summary: 'Cancel a monitor (idempotent): status cancelled, checks stop, history stays readable',
    params: { id: { in: 'path', description: 'monitor id' } },
    success: {
      status: 200,
      description: 'the cancelled monitor',
      schema: monitorCancelResponse,
    },
    errors: [400, 401, 404, 429],
  },
  {
    method: 'get',
    path: '/v1/webhook/secret',
    summary: "The account's webhook signing secret (HMAC-SHA256 key of X-Signature)",
    success: {
      status: 200,
      description: 'the secret',
      schema: webhookSecretResponse,
    },
    errors: [400, 401, 429],
  },
];
