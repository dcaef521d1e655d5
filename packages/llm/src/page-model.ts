/**
 * The extract model as the page-converting workers use it (scrape, batch items, crawl pages):
 * the `summary` format (Firecrawl's: a short summary of the main content) and the values of the
 * `changeTracking` format's `json` mode (a schema or prompt, extracted from the page). Both run the
 * same extraction as POST /v1/extract (token budget, one repair turn). Without a configured model
 * each call refuses with MODEL_NOT_CONFIGURED (503) naming what to set.
 */
import type { ExtractEnv } from '@wcs/config';
import { ModelNotConfiguredError } from '@wcs/errors';
import { runExtraction } from './extractor';
import type { ProviderChoice } from './provider-from-env';
import type { PageForModel } from './token-budget';

export const SUMMARY_PROMPT =
  "Summarize the page's main content for a reader who has not seen it: at most 3 sentences and 80 words, " +
  "in the page's own language, facts only (no opinions, no mention of 'this page'). " +
  'Put it in `summary`; an empty string when the page has no content to summarize.';

export interface SummaryRequest {
  page: PageForModel;
  /** Budget of the model call (the caller's deadline may cut it shorter). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface PageValuesRequest extends SummaryRequest {
  /** The plain extract schema (@wcs/llm's compilePlainSchema); absent for a prompt alone. */
  schema?: unknown;
  prompt?: string;
}

/** The extract model's work on one page, for the workers that convert pages. */
export interface PageModel {
  summarize(r: SummaryRequest): Promise<string>;
  extractValues(r: PageValuesRequest): Promise<Record<string, unknown>>;
}

export interface PageModelSettings {
  inputTokenBudget: number;
  maxTokens: number;
  modelTimeoutMs: number;
}

export function pageModelSettings(env: Omit<ExtractEnv, 'EXTRACT_WORKER_CONCURRENCY'>): PageModelSettings {
  return {
    inputTokenBudget: env.EXTRACT_INPUT_TOKEN_BUDGET,
    maxTokens: env.EXTRACT_MAX_TOKENS,
    modelTimeoutMs: env.EXTRACT_MODEL_TIMEOUT_MS,
  };
}

/** A summary is a few sentences: the extract's output budget is for whole objects. */
const SUMMARY_MAX_TOKENS = 512;

export function createPageModel(choice: ProviderChoice, settings: PageModelSettings): PageModel {
  if (!choice.ok) {
    const refuse = (what: string) =>
      Promise.reject(
        new ModelNotConfiguredError(
          `${what} needs the extract model, which is not configured on this worker: ${choice.error.message}`,
        ),
      );
    return {
      summarize: () => refuse('The summary format'),
      extractValues: () => refuse('The json mode of changeTracking'),
    };
  }
  const provider = choice.provider;
  const run = (r: SummaryRequest, what: { schema?: unknown; prompt?: string; maxTokens: number }) =>
    runExtraction(provider, {
      ...(what.schema !== undefined ? { schema: what.schema } : {}),
      ...(what.prompt !== undefined ? { prompt: what.prompt } : {}),
      page: r.page,
      inputTokenBudget: settings.inputTokenBudget,
      maxTokens: what.maxTokens,
      timeoutMs: Math.min(settings.modelTimeoutMs, r.timeoutMs ?? settings.modelTimeoutMs),
      ...(r.signal ? { signal: r.signal } : {}),
    });
  return {
    async summarize(r) {
      const maxTokens = Math.min(settings.maxTokens, SUMMARY_MAX_TOKENS);
      const result = await run(r, { schema: { summary: 'string' }, prompt: SUMMARY_PROMPT, maxTokens });
      const summary = result.data.summary;
      return typeof summary === 'string' ? summary.trim() : '';
    },
    async extractValues(r) {
      const result = await run(r, {
        ...(r.schema !== undefined ? { schema: r.schema } : {}),
        ...(r.prompt !== undefined ? { prompt: r.prompt } : {}),
        maxTokens: settings.maxTokens,
      });
      return result.data;
    },
  };
}
