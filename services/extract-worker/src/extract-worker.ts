import { providerFromEnv } from '@wcs/llm';
import type { Logger } from '@wcs/logger';
import { JobSecrets, workerDefiner } from '@wcs/queues';
import { createRendererFromEnv } from '@wcs/renderer';
import { ContentPool, contentPoolOptions, type SharedWorkerResources } from '@wcs/scraper';
import type { ExtractWorkerEnv } from './env';
import { extractProcessor } from './extract.processor';

export interface RunningExtractWorker {
  /** Whether a model is configured (false: every job fails with a 503 naming the variable). */
  modelConfigured: boolean;
  /** Converts the fetched pages; closed by `close`. */
  contentPool: ContentPool;
  close(): Promise<void>;
}

/** The `extract` queue's worker: renderer (fetch + Chromium) and the configured model provider. */
export async function startExtractWorker(
  env: ExtractWorkerEnv,
  logger: Logger,
  shared: SharedWorkerResources = {},
): Promise<RunningExtractWorker> {
  const provider = providerFromEnv(env);
  if (!provider.ok) logger.warn(provider.error.message);
  else logger.info({ provider: provider.provider.name, model: provider.provider.model }, 'extraction model');
  const renderer = shared.renderer ?? createRendererFromEnv(env, logger);
  const pool = shared.contentPool ?? new ContentPool(contentPoolOptions(env));
  const secrets = JobSecrets.connect(env.REDIS_URL, env.QUEUE_PREFIX);
  const worker = workerDefiner(env, logger, { concurrency: env.EXTRACT_WORKER_CONCURRENCY })(
    'extract',
    extractProcessor({
      renderer,
      pool,
      provider,
      secrets,
      logger: logger.child({ queue: 'extract' }),
      settings: {
        fetchTimeoutMs: env.FETCH_TIMEOUT_MS,
        modelTimeoutMs: env.EXTRACT_MODEL_TIMEOUT_MS,
        inputTokenBudget: env.EXTRACT_INPUT_TOKEN_BUDGET,
        maxTokens: env.EXTRACT_MAX_TOKENS,
      },
    }),
  );
  await worker.worker.waitUntilReady();
  return {
    modelConfigured: provider.ok,
    contentPool: pool,
    async close() {
      await worker.close();
      if (!shared.renderer) await renderer.close();
      if (!shared.contentPool) await pool.close();
      await secrets.close();
    },
  };
}
