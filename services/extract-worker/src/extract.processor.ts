/**
 * `extract` jobs: URL -> main-content markdown (scrapeDocument, onlyMainContent) -> token-budget
 * cut -> model -> validated data. The whole job runs under one budget (`timeoutMs` minus a margin
 * so the gateway gets our answer, not its own timeout, and never past the job's deadline, which
 * counts the time spent queued); running out while fetching or while the model thinks is a
 * TimeoutError (504). The job's signal (deadline, or the gateway's cancel when the caller stopped
 * waiting) aborts both the fetch and the model call. Billing stays with the gateway.
 */
import { TimeoutError, toServiceError } from '@wcs/errors';
import { compileRequestSchema, type ProviderChoice, runExtraction } from '@wcs/llm';
import type { Logger } from '@wcs/logger';
import {
  type ExtractJobResult,
  type Job,
  type JobContext,
  type JobSecrets,
  openJobSecrets,
  type PayloadOf,
} from '@wcs/queues';
import type { Renderer } from '@wcs/renderer';
import { type ContentPool, scrapeDocument } from '@wcs/scraper';

export interface ExtractSettings {
  fetchTimeoutMs: number;
  modelTimeoutMs: number;
  inputTokenBudget: number;
  maxTokens: number;
  /** Model calls a page longer than the budget may be split into (EXTRACT_MAX_CHUNKS). */
  maxChunks: number;
  overlapTokens: number;
  /** Largest chunk when a page needs more than maxChunks of the budget (maxChunkTokensOf). */
  maxChunkTokens?: number;
  /** Chunks of one page extracted at once (EXTRACT_CHUNK_CONCURRENCY). */
  chunkConcurrency?: number;
}

export interface ExtractDeps {
  renderer: Renderer;
  /** Converts the fetched page (created and closed by the worker's wiring). */
  pool: ContentPool;
  provider: ProviderChoice;
  logger: Pick<Logger, 'info' | 'warn'>;
  settings: ExtractSettings;
  /** Opens the sealed headers and actions of a job (job-secrets.ts). */
  secrets?: JobSecrets;
}

export function extractProcessor(deps: ExtractDeps) {
  return (payload: PayloadOf<'extract'>, _job: Job, ctx: JobContext): Promise<ExtractJobResult> =>
    runExtract(deps, payload, ctx);
}

export async function runExtract(
  deps: ExtractDeps,
  p: PayloadOf<'extract'>,
  job: Partial<JobContext> = {},
): Promise<ExtractJobResult> {
  const { provider, settings, logger } = deps;
  // Fail before fetching anything: no key, or a schema the gateway should already have refused.
  if (!provider.ok) throw provider.error;
  compileRequestSchema(p.schema);

  const started = Date.now();
  const margin = Math.min(1_500, Math.floor(p.timeoutMs * 0.1));
  const deadline = Math.min(started + p.timeoutMs, job.deadlineAt ?? Number.POSITIVE_INFINITY) - margin;
  const remaining = () => Math.max(1, deadline - Date.now());
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(new TimeoutError('Extraction timed out; retry')), remaining());
  // The job's own abort (cancel, hard deadline) stops the same work, with its own reason.
  const onJobAbort = () => budget.abort(job.signal?.reason);
  if (job.signal?.aborted) onJobAbort();
  else job.signal?.addEventListener('abort', onJobAbort, { once: true });
  let phase: 'fetch' | 'model' = 'fetch';
  try {
    const secrets = await openJobSecrets(deps.secrets, p.secrets);
    const page = await scrapeDocument(deps, {
      url: p.url,
      format: 'markdown',
      onlyMainContent: true,
      engine: 'auto',
      timeoutMs: Math.min(settings.fetchTimeoutMs, remaining()),
      signal: budget.signal,
      accountId: p.accountId,
      ...(p.waitForMs ? { waitForMs: p.waitForMs } : {}),
      // Never `formats`: the model reads the markdown (the gateway does not accept them here).
      ...(p.page ? { page: { ...p.page, formats: undefined } } : {}),
      ...(secrets ? { secrets } : {}),
    });
    phase = 'model';
    const meta = page.data.metadata;
    const result = await runExtraction(provider.provider, {
      ...(p.schema !== undefined ? { schema: p.schema } : {}),
      ...(p.prompt ? { prompt: p.prompt } : {}),
      page: {
        url: typeof meta.finalUrl === 'string' ? meta.finalUrl : p.url,
        title: meta.title,
        description: typeof meta.description === 'string' ? meta.description : null,
        markdown: page.data.markdown ?? '',
      },
      inputTokenBudget: settings.inputTokenBudget,
      maxTokens: settings.maxTokens,
      maxChunks: settings.maxChunks,
      overlapTokens: settings.overlapTokens,
      ...(settings.maxChunkTokens ? { maxChunkTokens: settings.maxChunkTokens } : {}),
      concurrency: settings.chunkConcurrency ?? 1,
      timeoutMs: Math.min(settings.modelTimeoutMs, remaining()),
      signal: budget.signal,
    });
    // Token use per request (never the key): what an operator needs to follow model costs.
    logger.info(
      {
        requestId: p.requestId,
        accountId: p.accountId,
        provider: provider.provider.name,
        model: result.model,
        inputTokens: result.inputTokens,
        outputTokens: result.outputTokens,
        pageTokens: result.pageTokens,
        truncated: result.truncated,
        attempts: result.attempts,
        chunks: result.chunks,
        failedChunks: result.failedChunks,
        settledFields: result.settledFields,
        estimatedTokens: result.estimatedTokens,
        fixes: result.fixes,
        ms: Date.now() - started,
      },
      'extract done',
    );
    return {
      data: result.data,
      inputTokens: result.inputTokens,
      outputTokens: result.outputTokens,
      model: result.model,
      chunks: result.chunks,
      usage: {
        inputTokens: result.inputTokens,
        outputTokens: result.outputTokens,
        modelCalls: result.attempts,
        chunks: result.chunks,
        failedChunks: result.failedChunks,
        estimated: result.estimatedTokens,
      },
      truncated: result.truncated,
      ...(result.warning ? { warning: result.warning } : {}),
    };
  } catch (err) {
    const se = job.signal?.aborted
      ? toServiceError(job.signal.reason)
      : budget.signal.aborted
        ? new TimeoutError(
            phase === 'fetch'
              ? `Extraction timed out fetching ${p.url} (budget ${p.timeoutMs} ms); retry`
              : `Extraction timed out waiting for the model (budget ${p.timeoutMs} ms); retry`,
          )
        : toServiceError(err);
    logger.warn(
      { requestId: p.requestId, accountId: p.accountId, phase, code: se.code, ms: Date.now() - started },
      'extract failed',
    );
    throw se;
  } finally {
    clearTimeout(timer);
    job.signal?.removeEventListener('abort', onJobAbort);
  }
}
