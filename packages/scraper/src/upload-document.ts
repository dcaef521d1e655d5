import type { OutputFormat } from '@wcs/content';
import { sniffUploadKind, UPLOAD_MEDIA_TYPES } from '@wcs/documents';
import { UnsupportedContentTypeError } from '@wcs/errors';
import { decodeBody } from '@wcs/net/charset';
import type { DocumentData, PageOptions } from '@wcs/queues';
import type { ContentTask } from './content.task';
import type { ContentPool } from './content-pool';
import type { PageModel } from './page-model';
import { addSummary, contentFormats, wantsSummary } from './page-summary';
import { verdictOutcome } from './verdict-outcome';

/** A file the caller sent (POST /v1/parse), to be converted like a fetched page. */
export interface UploadRequest {
  bytes: Uint8Array;
  /** What `metadata.sourceURL` says, and what the file's relative links resolve against. */
  sourceUrl: string;
  format: OutputFormat;
  onlyMainContent: boolean;
  /** The page options that apply to a file: formats, includeTags, excludeTags. */
  page?: Pick<PageOptions, 'formats' | 'includeTags' | 'excludeTags'>;
  signal?: AbortSignal;
  budgetMs?: number;
  accountId?: string;
  /** The extract model: writes the `summary` format (page-summary.ts). */
  model?: PageModel;
}

export const UPLOAD_KINDS_TEXT = 'a PDF, a Word (DOCX) or an HTML file';

/**
 * An uploaded file -> the document a scrape of it would give: its kind is sniffed from the bytes
 * (never the caller's label), a PDF or DOCX is converted by @wcs/documents inside the content
 * pool's thread (under its caps, inflate limits and budget, like a fetched document) and HTML goes
 * through the same content pipeline. A damaged file fails as DOCUMENT_UNREADABLE (422), bytes of
 * another kind as UNSUPPORTED_CONTENT_TYPE (415). The page verdict (walls, error pages) fails a
 * fetch because the caller would pay for a page they did not want; here the caller chose the
 * file, so the verdict only warns.
 */
export async function documentFromUpload(pool: ContentPool, req: UploadRequest): Promise<DocumentData> {
  const kind = sniffUploadKind(req.bytes);
  if (!kind) {
    throw new UnsupportedContentTypeError(
      `The file is not ${UPLOAD_KINDS_TEXT} (its type is read from its bytes, not its label)`,
    );
  }
  const contentType = UPLOAD_MEDIA_TYPES[kind];
  const page = req.page;
  const task: ContentTask = {
    body: kind === 'html' ? decodeBody(req.bytes).text : '',
    contentType,
    finalUrl: req.sourceUrl,
    sourceUrl: req.sourceUrl,
    statusCode: 200,
    format: req.format,
    onlyMainContent: req.onlyMainContent,
    links: false,
    ...(page?.formats ? { formats: contentFormats(page.formats) } : {}),
    ...(page?.includeTags ? { includeTags: page.includeTags } : {}),
    ...(page?.excludeTags ? { excludeTags: page.excludeTags } : {}),
    ...(kind !== 'html' ? { bytes: req.bytes, documentKind: kind } : {}),
  };
  const { data, verdict } = await pool.run(task, req.signal, req.budgetMs, req.accountId);
  data.metadata.verdict = verdict.verdict;
  const outcome = verdictOutcome(verdict);
  if (outcome.kind === 'deliver' && outcome.warning)
    data.warning = data.warning ? `${data.warning} ${outcome.warning}` : outcome.warning;
  if (wantsSummary(page?.formats)) {
    await addSummary(data, {
      url: req.sourceUrl,
      ...(page ? { page } : {}),
      ...(req.model ? { model: req.model } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
    });
  }
  return data;
}
