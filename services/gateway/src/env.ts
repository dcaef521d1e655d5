import {
  apiKeysEnv,
  baseEnv,
  batchEnv,
  checkPageStoreEnv,
  contentEnv,
  crawlEnv,
  databaseEnv,
  extractEnv,
  gatewayEnv,
  loadEnv,
  pageStoreEnvFields,
  renderEnv,
  searchEnv,
} from '@wcs/config';
import type { z } from 'zod';

export const gatewayEnvSchema = baseEnv
  .extend(databaseEnv.shape)
  .extend(gatewayEnv.shape)
  .extend(apiKeysEnv.shape)
  .extend(searchEnv.shape)
  // Refuses private monitor/webhook URLs at creation, as the workers would when they fetch them.
  .extend(renderEnv.pick({ ALLOW_PRIVATE_TARGETS: true }).shape)
  // POST /v1/parse takes files as large as the workers fetch.
  // GET /v1/capabilities describes the workers from the settings they share with the gateway (the
  // compose file and the one-process mode give every service one environment): only whether and
  // how many, never a key or a proxy URL.
  .extend(
    renderEnv.pick({
      BROWSER_ENABLED: true,
      PROXY_URLS: true,
      PROXY_MODE: true,
      MAX_BODY_BYTES: true,
      MAX_DOCUMENT_BYTES: true,
    }).shape,
  )
  .extend(contentEnv.pick({ OCR_ENABLED: true, OCR_LANGUAGES: true }).shape)
  // GET /v1/capabilities: the time a batch item and a crawled page get on the workers.
  .extend(batchEnv.pick({ BATCH_ITEM_TIMEOUT_MS: true }).shape)
  .extend(crawlEnv.pick({ CRAWL_PAGE_TIMEOUT_MS: true }).shape)
  .extend(
    extractEnv.pick({
      EXTRACT_PROVIDER: true,
      LLM_PROVIDER: true,
      EXTRACT_MODEL: true,
      LLM_MODEL: true,
      LLM_MODEL_PATH: true,
      LLM_BASE_URL: true,
      OLLAMA_HOST: true,
      ANTHROPIC_API_KEY: true,
      OPENAI_BASE_URL: true,
    }).shape,
  )
  // Serves screenshots from where the workers keep them (PostgreSQL or the S3 bucket).
  .extend(pageStoreEnvFields.omit({ PAGE_CACHE_TTL_HOURS: true, RETENTION_SWEEP_MS: true }).shape)
  .superRefine(checkPageStoreEnv);
export type GatewayEnv = z.infer<typeof gatewayEnvSchema>;

export function loadGatewayEnv(env?: NodeJS.ProcessEnv): GatewayEnv {
  return loadEnv(gatewayEnvSchema, env);
}
