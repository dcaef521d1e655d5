import { randomUUID } from 'node:crypto';
import { sniffUploadKind } from '@wcs/documents';
import { UnsupportedContentTypeError, ValidationError } from '@wcs/errors';
import { Router } from 'express';
import { type ParseOptions, parseOptions } from '../contract/parse.request';
import type { Body, scrapeResponse } from '../contract/responses';
import type { AuthContext, GatewayDeps } from '../deps';
import type { CallerResponse } from '../jobs/caller-gone';
import { type DocumentAnswer, runScrapeJob } from '../jobs/scrape-job';
import { authOf } from '../middleware/auth.middleware';
import { type JobClock, setServerTiming } from '../middleware/server-timing';
import { readUpload, type UploadedFile } from '../middleware/upload-body';
import { requireModelForPage } from '../validation/model-check';
import { checkPageOptions } from '../validation/page-options';
import { parseBody } from '../validation/parse-body';
import { uploadOptions } from '../validation/upload-options';

/** Where an upload says it came from: `file:///<its name>` (links in an HTML file resolve against it). */
export function uploadSourceUrl(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop()?.trim() || 'upload';
  return `file:///${encodeURIComponent(base)}`;
}

/**
 * One uploaded file -> its document (POST /v1/parse and /firecrawl/v2/parse): the file's kind is
 * sniffed from its bytes before any charge (415 for anything but PDF, DOCX and HTML), then 1 credit
 * is charged like a scrape (ledger reason `scrape`, refunded if the conversion fails: a damaged
 * file is 422 DOCUMENT_UNREADABLE and costs nothing). The bytes go to the scrape worker through the
 * UploadStore; the job is a `scrape` job with `upload` set.
 */
export async function parseOperation(
  deps: GatewayDeps,
  auth: AuthContext,
  file: UploadedFile,
  body: ParseOptions,
  caller?: CallerResponse,
  clock?: JobClock,
): Promise<DocumentAnswer> {
  const { options } = checkPageOptions(body, { format: body.format });
  requireModelForPage(deps.deployment, options);
  if (!sniffUploadKind(file.bytes)) {
    throw new UnsupportedContentTypeError(
      'The file is not a PDF, a Word (DOCX) or an HTML file (its type is read from its bytes, not its label)',
    );
  }
  const requestId = randomUUID();
  const timeoutMs = body.timeout ?? deps.settings.scrapeTimeoutMs;
  // Kept for as long as the gateway waits for the job (runScrapeJob's margin included).
  await deps.uploads.put(requestId, file.bytes, timeoutMs + 5_000);
  try {
    const job = {
      requestId,
      timeoutMs,
      options,
      fields: {
        url: uploadSourceUrl(body.filename ?? file.name),
        format: body.format ?? 'markdown',
        onlyMainContent: body.onlyMainContent,
        engine: 'fetch' as const,
        upload: { id: requestId },
      },
    };
    return await runScrapeJob(deps, auth, job, caller, clock);
  } finally {
    // Taken by the worker when it ran; when it did not (402, timeout), gone now rather than at its TTL.
    await deps.uploads.drop(requestId).catch(() => undefined);
  }
}

/** POST /v1/parse: a file (multipart or raw body) -> the document, 1 credit. */
export function parseRoutes(deps: GatewayDeps): Router {
  const router = Router();
  router.post('/v1/parse', async (req, res) => {
    const upload = await readUpload(req, deps.settings.maxDocumentBytes);
    const body = parseBody(parseOptions, uploadOptions(optionTexts(upload.fields, req.query)));
    const clock: JobClock = {};
    const { data, timings } = await parseOperation(deps, authOf(res), upload.file, body, res, clock);
    setServerTiming(res, clock, timings);
    res.json({ success: true, data } satisfies Body<typeof scrapeResponse>);
  });
  return router;
}

/** A form's fields and the query string together (Express's query: strings, lists of strings). */
export function optionTexts(
  fields: Record<string, string>,
  query: unknown,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = { ...fields };
  for (const [k, v] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (k in out)
      throw new ValidationError(`${k}: given in the form and in the query string; give it once`, {
        details: { field: k },
      });
    out[k] =
      typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string'))
        ? (v as string | string[])
        : String(v);
  }
  return out;
}
