import { InvalidUrlError, ValidationError } from '@wcs/errors';
import {
  type JobWebhook,
  type JobWebhookEvent,
  type JobWebhookInput,
  MAX_WEBHOOK_METADATA_BYTES,
} from '@wcs/queues';
import { assertFetchableLater, type FetchPolicy } from './fetch-later-url';
import { normalizeTargetUrl } from './target-url';

const ALL_EVENTS: readonly JobWebhookEvent[] = ['started', 'page', 'completed', 'failed'];

/**
 * The `webhook` of a crawl or batch as stored: a bare URL means every event. The receiver
 * is checked like a monitor's webhook — named exactly (no https:// guessing) and against the
 * workers' address policy now, so a private receiver is refused at creation rather than failing
 * unseen deliveries later.
 */
export async function checkJobWebhook(
  input: JobWebhookInput,
  opts: FetchPolicy & { field?: string },
): Promise<JobWebhook> {
  const field = opts.field ?? 'webhook';
  const form = typeof input === 'string' ? { url: input } : input;
  const urlField = typeof input === 'string' ? field : `${field}.url`;
  if (!/^https?:\/\//i.test(form.url.trim())) {
    throw new InvalidUrlError(`${urlField}: must be an absolute http(s) URL`);
  }
  const url = normalizeTargetUrl(form.url, { prependHttps: false, field: urlField });
  if (form.metadata !== undefined) {
    const size = Buffer.byteLength(JSON.stringify(form.metadata), 'utf8');
    if (size > MAX_WEBHOOK_METADATA_BYTES) {
      throw new ValidationError(
        `${field}.metadata: at most ${MAX_WEBHOOK_METADATA_BYTES} bytes serialized (got ${size})`,
        { details: { field: `${field}.metadata`, maxBytes: MAX_WEBHOOK_METADATA_BYTES } },
      );
    }
  }
  await assertFetchableLater(url, opts);
  // Deduplicated, in the canonical order: the stored form is compared and shown, not the raw input.
  const asked = new Set(form.events ?? ALL_EVENTS);
  return {
    url,
    ...(form.headers && Object.keys(form.headers).length > 0 ? { headers: { ...form.headers } } : {}),
    ...(form.metadata !== undefined ? { metadata: form.metadata } : {}),
    events: ALL_EVENTS.filter((e) => asked.has(e)),
  };
}
