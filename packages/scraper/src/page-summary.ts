/**
 * The `summary` format: the content thread makes the page's markdown (the model reads markdown),
 * then the worker's page model (@wcs/llm, the extract model) writes `data.summary`; the markdown
 * stays only when it was asked for too. A page whose summary fails fails as a whole (refunded).
 */
import { ModelNotConfiguredError } from '@wcs/errors';
import type { DocumentData, PageFormat } from '@wcs/queues';
import type { PageModel } from './page-model';

export function wantsSummary(formats: readonly PageFormat[] | undefined): boolean {
  return formats?.includes('summary') ?? false;
}

/** What the content thread computes for `formats`: markdown in place of `summary`. */
export function contentFormats(formats: PageFormat[]): PageFormat[] {
  if (!wantsSummary(formats)) return formats;
  const rest = formats.filter((f) => f !== 'summary');
  return rest.includes('markdown') ? rest : [...rest, 'markdown'];
}

export async function addSummary(
  data: DocumentData,
  req: { url: string; page?: { formats?: PageFormat[] }; model?: PageModel; signal?: AbortSignal },
): Promise<void> {
  if (!req.model) {
    throw new ModelNotConfiguredError(
      'The summary format needs the extract model; this worker has none (set EXTRACT_PROVIDER and its key on it)',
    );
  }
  const meta = data.metadata;
  data.summary = await req.model.summarize({
    page: {
      url: meta.finalUrl ?? req.url,
      title: meta.title,
      description: meta.description ?? null,
      markdown: data.markdown ?? '',
    },
    ...(req.signal ? { signal: req.signal } : {}),
  });
  if (!req.page?.formats?.includes('markdown')) delete data.markdown;
}
