/**
 * POST/GET /firecrawl/v2/extract[/:id] and /firecrawl/v1/extract[/:id]. The start
 * answers `{ success, id }` once the request is checked (URL, schema, page options: 400s; no model:
 * 503) and the native cost is charged (402 for the balance or the key's limit); the native extract
 * then runs in the background and its outcome is kept for 24 hours (extract-store.compat.ts). One URL per extract (the native one);
 * the caller's JSON Schema becomes the native plain schema, so every field comes back, `null`
 * when the page does not hold it. Billing is the native extract's (5 credits, refunded on failure).
 */
import { randomUUID } from 'node:crypto';
import { InternalError, NotFoundError, toServiceError, ValidationError } from '@wcs/errors';
import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { EXTRACT_DEFAULT_TIMEOUT_MS, extractBody } from '../contract/extract.request';
import type { AuthContext, GatewayDeps } from '../deps';
import { setCreditHeaders } from '../jobs/credit-headers';
import { authOf } from '../middleware/auth.middleware';
import {
  EXTRACT_BILLED_FAILURE_COST,
  EXTRACT_COST,
  prepareExtract,
  runExtract,
} from '../routes/extract.routes';
import { requireModel } from '../validation/model-check';
import { parseBody } from '../validation/parse-body';
import { EXTRACT_RESULT_TTL_SECONDS, ExtractStore } from './extract-store.compat';
import { parseAs, renameFields } from './field-names.compat';
import { toPlainSchema } from './json-schema.compat';
import {
  firecrawlScrapeOptionsV1,
  firecrawlScrapeOptionsV2,
  type TranslatedScrapeOptions,
  toNativePageFields,
  toNativePageFieldsV1,
} from './scrape-options.compat';

const common = {
  urls: z.array(z.string({ error: 'must be a URL string' }), { error: 'is required: an array with one URL' }),
  prompt: z.string({ error: 'must be a string' }).optional(),
  schema: z.record(z.string(), z.unknown(), { error: 'must be a JSON Schema object' }).optional(),
  systemPrompt: z.unknown().optional(),
  allowExternalLinks: z.unknown().optional(),
  enableWebSearch: z.unknown().optional(),
  showSources: z.unknown().optional(),
  ignoreInvalidURLs: z.boolean({ error: 'must be a boolean' }).optional(),
  agent: z.unknown().optional(),
  origin: z.string().optional(),
  integration: z.string().nullable().optional(),
};

export const firecrawlExtractBodyV2 = z.strictObject({
  ...common,
  scrapeOptions: firecrawlScrapeOptionsV2.optional(),
  webhook: z.unknown().optional(),
  threatProtection: z.unknown().optional(),
});

export const firecrawlExtractBodyV1 = z.strictObject({
  ...common,
  includeSubdomains: z.unknown().optional(),
  scrapeOptions: firecrawlScrapeOptionsV1.optional(),
});

type Body = z.infer<typeof firecrawlExtractBodyV2> | z.infer<typeof firecrawlExtractBodyV1>;

function refuse(field: string, message: string): never {
  throw new ValidationError(`${field}: ${message}`, { details: { field } });
}

/** Present with a value that asks for something. */
function given(v: unknown): boolean {
  return v !== undefined && v !== null && v !== false;
}

/** The Firecrawl body → the native extract body, checked by the native schema and `prepareExtract`. */
function nativeExtract(auth: AuthContext, body: Body, t: TranslatedScrapeOptions | undefined) {
  if (body.urls.length !== 1)
    refuse(
      'urls',
      `give exactly one URL (this service extracts from one page per request; got ${body.urls.length})`,
    );
  const target = body.urls[0] as string;
  if (/\/\*+$/.test(target)) refuse('urls.0', 'wildcards (/*) are not supported: give the page URL');
  for (const name of [
    'systemPrompt',
    'allowExternalLinks',
    'enableWebSearch',
    'showSources',
    'agent',
  ] as const) {
    if (given(body[name])) refuse(name, 'is not supported by this service');
  }
  for (const name of ['webhook', 'threatProtection', 'includeSubdomains'] as const) {
    if (name in body && given((body as Record<string, unknown>)[name]))
      refuse(name, 'is not supported by this service');
  }
  const schema = body.schema === undefined ? undefined : toPlainSchema(body.schema, 'schema');
  const page = t?.page;
  if (page) {
    const raw = body.scrapeOptions as Record<string, unknown>;
    if (raw.formats !== undefined)
      refuse('scrapeOptions.formats', 'is not used by extract (it reads the page itself)');
    for (const name of ['onlyMainContent', 'timeout', 'maxAge'] as const) {
      if (page[name] !== undefined) refuse(`scrapeOptions.${name}`, 'is not supported by extract');
    }
  }
  const native = parseAs(
    extractBody,
    {
      url: target,
      ...(schema ? { schema } : {}),
      ...(body.prompt !== undefined ? { prompt: body.prompt } : {}),
      ...Object.fromEntries(
        // Extract reads the page without the page cache: storeInCache has nothing to do.
        Object.entries(page ?? {}).filter(
          ([k, v]) => k !== 'formats' && k !== 'storeInCache' && v !== undefined,
        ),
      ),
    },
    {
      url: 'urls.0',
      headers: 'scrapeOptions.headers',
      actions: 'scrapeOptions.actions',
      mobile: 'scrapeOptions.mobile',
      location: 'scrapeOptions.location',
      includeTags: 'scrapeOptions.includeTags',
      excludeTags: 'scrapeOptions.excludeTags',
      waitFor: 'scrapeOptions.waitFor',
    },
  );
  try {
    return prepareExtract(auth, native);
  } catch (err) {
    // The URL's and the schema's checks name the native `url`; the caller sent `urls`.
    throw renameFields(err, { url: 'urls.0' });
  }
}

/**
 * Check, charge (402 for the balance or the key's daily/monthly limit, as the native extract, so
 * the start answers it as Firecrawl does), store the job as processing and let the native extract
 * run on behind the answer. The start's credit headers say what was charged then (the extract's 5;
 * a failure refunds them, the status says so).
 */
async function startExtract(
  deps: GatewayDeps,
  auth: AuthContext,
  body: Body,
  t: TranslatedScrapeOptions | undefined,
  res: Response,
) {
  const prepared = nativeExtract(auth, body, t);
  requireModel(deps.deployment, 'Extract');
  let onCharged: (c: { balance: number }) => void = () => undefined;
  const charged = new Promise<{ balance: number }>((resolve) => {
    onCharged = resolve;
  });
  const run = runExtract(deps, prepared, undefined, (c) => onCharged(c));
  // The charge comes before the work: whatever settles first is the charge, or an error before it.
  const first = await Promise.race([charged, run.then(() => undefined)]);
  if (!first) throw new InternalError('firecrawl extract: the work ended before its charge');
  setCreditHeaders(res, { used: EXTRACT_COST, remaining: first.balance });
  const store = new ExtractStore(deps.redis);
  const id = randomUUID();
  const expiresAt = new Date(Date.now() + EXTRACT_RESULT_TTL_SECONDS * 1000).toISOString();
  const base = {
    accountId: auth.accountId,
    expiresAt,
    deadlineAt: Date.now() + (prepared.body.timeout ?? EXTRACT_DEFAULT_TIMEOUT_MS) + 60_000,
  };
  await store.put(id, { ...base, status: 'processing' });
  // Stored after `processing` above, so an outcome is never overwritten by it.
  void run
    .then(
      async ({ data }) => {
        await store.put(id, { ...base, status: 'completed', data, creditsUsed: EXTRACT_COST });
      },
      async (err: unknown) => {
        const se = toServiceError(err);
        if (se.code === 'INTERNAL') deps.logger.error({ err, extractId: id }, 'firecrawl extract failed');
        const error = se.code === 'INTERNAL' ? 'Internal error' : se.message;
        // A billed failure (selectors that spent the page's budget) keeps the page's 1 credit.
        const creditsUsed = se.billed ? EXTRACT_BILLED_FAILURE_COST : 0;
        await store
          .put(id, { ...base, status: 'failed', error, code: se.code, creditsUsed })
          .catch((e: unknown) => {
            deps.logger.warn({ err: e, extractId: id }, 'firecrawl extract outcome not stored');
          });
      },
    )
    .catch((e: unknown) => {
      deps.logger.warn({ err: e, extractId: id }, 'firecrawl extract outcome not stored');
    });
  return id;
}

async function extractStatus(deps: GatewayDeps, req: Request, res: Response) {
  const auth = authOf(res);
  const job = await new ExtractStore(deps.redis).get(auth.accountId, String(req.params.id));
  if (!job) throw new NotFoundError('Extract job not found');
  // Charged so far: the reserve while it runs, then what it kept.
  const used = job.creditsUsed ?? (job.status === 'processing' ? EXTRACT_COST : 0);
  setCreditHeaders(res, { used, remaining: await deps.credits.balance(auth.accountId) });
  res.json({
    success: job.status !== 'failed',
    status: job.status,
    data: job.data ?? null,
    expiresAt: job.expiresAt,
    ...(job.creditsUsed !== undefined ? { creditsUsed: job.creditsUsed } : {}),
    ...(job.error ? { error: job.error, code: job.code } : {}),
  });
}

/** Firecrawl extract routes (v1 and v2): start `{ success, id }`, status `{ success, status, data }`. */
export function extractCompatRoutes(deps: GatewayDeps): Router {
  const router = Router();
  router.post('/v2/extract', async (req: Request, res: Response) => {
    const body = parseBody(firecrawlExtractBodyV2, req.body);
    const t = body.scrapeOptions
      ? toNativePageFields(body.scrapeOptions, { prefix: 'scrapeOptions.', allowJson: false })
      : undefined;
    res.json({ success: true, id: await startExtract(deps, authOf(res), body, t, res) });
  });
  router.post('/v1/extract', async (req: Request, res: Response) => {
    const body = parseBody(firecrawlExtractBodyV1, req.body);
    const t = body.scrapeOptions
      ? toNativePageFieldsV1(body.scrapeOptions, { prefix: 'scrapeOptions.', allowJson: false })
      : undefined;
    res.json({ success: true, id: await startExtract(deps, authOf(res), body, t, res) });
  });
  router.get('/v2/extract/:id', (req, res) => extractStatus(deps, req, res));
  router.get('/v1/extract/:id', (req, res) => extractStatus(deps, req, res));
  return router;
}
