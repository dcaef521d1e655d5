import { queueKeyPrefix, redisTarget } from '@wcs/config';
import { maxChunkTokensOf, providerFromEnv } from '@wcs/llm';
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
  // Parsed once here; every Redis user of the process gets the target and the prefix its keys carry.
  const target = redisTarget(env);
  const prefix = queueKeyPrefix(target, env.QUEUE_PREFIX);
  const provider = providerFromEnv(env);
  if (!provider.ok) logger.warn(provider.error.message);
  else logger.info({ provider: provider.provider.name, model: provider.provider.model }, 'extraction model');
  const renderer = shared.renderer ?? createRendererFromEnv(env, logger);
  const pool = shared.contentPool ?? new ContentPool(contentPoolOptions(env));
  const secrets = JobSecrets.connect(target, prefix);
  const worker = workerDefiner({ ...env, redis: target }, logger, {
    concurrency: env.EXTRACT_WORKER_CONCURRENCY,
  })(
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
        maxChunks: env.EXTRACT_MAX_CHUNKS,
        overlapTokens: env.EXTRACT_CHUNK_OVERLAP_TOKENS,
        maxChunkTokens: maxChunkTokensOf(env),
        chunkConcurrency: env.EXTRACT_CHUNK_CONCURRENCY,
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
      // The embedded model's memory, the HTTP providers' connections.
      if (provider.ok) await provider.provider.close?.();
    },
  };
}
