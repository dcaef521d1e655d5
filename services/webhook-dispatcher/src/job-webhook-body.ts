import type { JobWebhookDispatch, JobWebhookPage } from '@wcs/db';
import type { JobWebhookBody, JobWebhookType } from '@wcs/queues';

/**
 * The body of one job-webhook event in Firecrawl's shape `{ success, type, id, data, error?,
 * metadata, timestamp }`, built at dispatch time from the stored event and, for a `page` event, the
 * stored page (the outbox keeps a reference, not a copy of the document).
 */
export function jobWebhookBody(d: JobWebhookDispatch): JobWebhookBody {
  const type = `${d.kind}.${d.event}` as JobWebhookType;
  const tail = { metadata: d.metadata, timestamp: d.createdAt.toISOString() };
  if (d.event === 'started' || d.event === 'completed') {
    return { success: true, type, id: d.jobId, data: [], ...tail };
  }
  if (d.event === 'failed') {
    return { success: false, type, id: d.jobId, data: [], error: d.error ?? 'The job failed', ...tail };
  }
  const p = d.page;
  if (!p) {
    return { success: false, type, id: d.jobId, data: [], error: 'The page is no longer stored', ...tail };
  }
  if (p.status === 'done') return { success: true, type, id: d.jobId, data: [pageDocument(p)], ...tail };
  const error = p.error ?? 'The page could not be scraped';
  const metadata = {
    url: p.url,
    sourceURL: p.url,
    ...(p.statusCode !== null ? { statusCode: p.statusCode } : {}),
    error,
    ...(p.errorCode ? { errorCode: p.errorCode } : {}),
  };
  return { success: false, type, id: d.jobId, data: [{ metadata }], error, ...tail };
}

/**
 * The stored document (native DocumentData, already Firecrawl-like) with `metadata.url`, Firecrawl's
 * name for where the page ended (after redirects), and `sourceURL` (the URL asked for).
 */
function pageDocument(p: JobWebhookPage): Record<string, unknown> {
  const doc = isObject(p.result) ? p.result : {};
  const meta = isObject(doc.metadata) ? doc.metadata : {};
  const sourceURL = typeof meta.sourceURL === 'string' ? meta.sourceURL : p.url;
  const url =
    typeof meta.url === 'string' ? meta.url : typeof meta.finalUrl === 'string' ? meta.finalUrl : sourceURL;
  return {
    ...doc,
    metadata: {
      ...meta,
      url,
      sourceURL,
      ...(meta.statusCode === undefined && p.statusCode !== null ? { statusCode: p.statusCode } : {}),
    },
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
