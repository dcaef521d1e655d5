import { randomUUID } from 'node:crypto';
import { ValidationError } from '@wcs/errors';
import { assertPlainSchemaDepth, compilePlainSchema } from '@wcs/llm';
import { EXTRACT_CREDITS, type ExtractJobResult } from '@wcs/queues';
import { Router } from 'express';
import { type ExtractBody, extractBody } from '../contract/extract.request';
import type { Body, extractResponse } from '../contract/responses';
import type { AuthContext, GatewayDeps } from '../deps';
import type { CallerResponse } from '../jobs/caller-gone';
import { type ChargeTerms, runChargedJob } from '../jobs/charged-job';
import { authOf } from '../middleware/auth.middleware';
import { requireModel } from '../validation/model-check';
import { type CheckedPageOptions, checkPageOptions } from '../validation/page-options';
import { parseBody } from '../validation/parse-body';
import { checkTargetBeforeCharge } from '../validation/target-check';
import { normalizeTargetUrl } from '../validation/target-url';

export const EXTRACT_COST = EXTRACT_CREDITS;
/** Selectors that spent the page's budget cost the page (a scrape's credit), not the model call. */
export const EXTRACT_BILLED_FAILURE_COST = 1;

/** What an extract returns: the data, the request id (ledger reference) and what was read. */
export interface ExtractOutcome {
  requestId: string;
  data: Record<string, unknown>;
  chunks: number;
  usage: NonNullable<ExtractJobResult['usage']>;
  truncated: boolean;
  warning?: string;
}

/** An extract whose request was checked: what `runExtract` needs. */
export interface PreparedExtract {
  accountId: string;
  /** The caller's key: its credit limits apply. */
  keyId?: string | undefined;
  body: ExtractBody;
  url: string;
  checked: CheckedPageOptions;
}

/**
 * Everything the caller can get wrong (url, schema, neither schema nor prompt, page options) as a
 * 400, before any charge. `rawSchema` is the schema as sent, for its own depth limit (8) first, so
 * a deep schema is told that limit, not the body's.
 */
export function prepareExtract(
  auth: AuthContext,
  body: ExtractBody,
  rawSchema: unknown = body.schema,
): PreparedExtract {
  if (rawSchema !== undefined) assertPlainSchemaDepth(rawSchema);
  const url = normalizeTargetUrl(body.url, { prependHttps: true });
  if (body.schema === undefined && body.prompt === undefined) {
    throw new ValidationError('Provide `schema` (the shape wanted back), `prompt` (an instruction), or both');
  }
  // Compiled here for the 400 naming the bad path; the worker's compile hits its own cache.
  if (body.schema !== undefined) compilePlainSchema(body.schema);
  const checked = checkPageOptions(body, { keepsNoScreenshots: 'extract' });
  return { accountId: auth.accountId, keyId: auth.keyId, body, url, checked };
}

/**
 * Run a prepared extract: 5 credits, charged up front and refunded on any failure (ours, the
 * target's or the model's). Returns the data shaped exactly like the schema (`null` for what the
 * page does not contain) and the request id (ledger reference).
 */
export async function runExtract(
  deps: GatewayDeps,
  p: PreparedExtract,
  caller?: CallerResponse,
  onCharged?: ChargeTerms['onCharged'],
): Promise<ExtractOutcome> {
  const { body, url } = p;
  const { options, secrets } = p.checked;
  requireModel(deps.deployment, 'Extract');
  await checkTargetBeforeCharge(deps, url);
  const requestId = randomUUID();
  const result = await runChargedJob(deps, {
    accountId: p.accountId,
    keyId: p.keyId,
    requestId,
    secrets,
    cost: EXTRACT_COST,
    billedFailureCost: EXTRACT_BILLED_FAILURE_COST,
    reason: 'extract',
    refundReason: 'extract_refund',
    queue: 'extract',
    payload: {
      requestId,
      accountId: p.accountId,
      url,
      ...(body.schema !== undefined ? { schema: body.schema } : {}),
      ...(body.prompt ? { prompt: body.prompt } : {}),
      timeoutMs: body.timeout,
      ...(body.waitFor > 0 ? { waitForMs: body.waitFor } : {}),
      ...(Object.keys(options).length > 0 ? { page: options } : {}),
    },
    // The worker answers before its budget ends; the margin covers queueing and Redis.
    waitMs: body.timeout + 5_000,
    ...(caller ? { caller } : {}),
    onCharged,
  });
  const chunks = result.chunks ?? 1;
  return {
    requestId,
    data: result.data,
    chunks,
    usage: result.usage ?? {
      // An older worker: its token counts, nothing about calls.
      inputTokens: result.inputTokens,
      outputTokens: result.outputTokens,
      modelCalls: chunks,
      chunks,
      failedChunks: 0,
      estimated: false,
    },
    truncated: result.truncated ?? false,
    ...(result.warning ? { warning: result.warning } : {}),
  };
}

/** One extract (POST /v1/extract and the Firecrawl-compatible routes): `prepareExtract` then `runExtract`. */
export async function extractOperation(
  deps: GatewayDeps,
  auth: AuthContext,
  body: ExtractBody,
  caller?: CallerResponse,
  rawSchema?: unknown,
): Promise<ExtractOutcome> {
  return runExtract(deps, prepareExtract(auth, body, rawSchema ?? body.schema), caller);
}

/**
 * POST /v1/extract: 5 credits, charged up front and refunded on any failure (ours, the target's or
 * the model's). Everything the caller can get wrong (url, schema, neither schema nor prompt) is a
 * 400 before the charge. Answer: `{ success: true, data, usage, truncated }` (and `warning` when the
 * page was cut or chunks failed), data shaped exactly like the schema with `null` for what the
 * page does not contain.
 */
export function extractRoutes(deps: GatewayDeps): Router {
  const router = Router();
  router.post('/v1/extract', async (req, res) => {
    const auth = authOf(res);
    // The schema's own depth limit (8) first, so a deep schema is told that limit, not the body's.
    const rawSchema: unknown = (req.body as { schema?: unknown } | undefined)?.schema;
    if (rawSchema !== undefined) assertPlainSchemaDepth(rawSchema);
    const body = parseBody(extractBody, req.body);
    const { data, chunks, usage, truncated, warning } = await extractOperation(
      deps,
      auth,
      body,
      res,
      rawSchema,
    );
    res.json({
      success: true,
      data,
      ...(chunks > 1 ? { chunks } : {}),
      usage,
      truncated,
      ...(warning ? { warning } : {}),
    } satisfies Body<typeof extractResponse>);
  });
  return router;
}
