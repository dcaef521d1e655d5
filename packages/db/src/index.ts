export { type AccountInfo, AccountsRepository } from './accounts.repository';
export { API_KEY_PREFIX, hashApiKey, isWellFormedApiKey } from './api-key';
export { type ApiKeyInfo, ApiKeysRepository, type KeyLimits, keyBudgetResets } from './api-keys.repository';
export type {
  BatchItemPage,
  BatchItemStatus,
  BatchItemView,
  BatchStatus,
  BatchWithItems,
  NewBatch,
  StartedBatchItem,
} from './batch.types';
export { BatchesRepository } from './batches.repository';
export type {
  CompletePageOutcome,
  CrawlOfTask,
  CrawlOptions,
  CrawlPageStart,
  CrawlPageStartWithHistory,
  CrawlPageStatus,
  CrawlPageTask,
  CrawlPageView,
  CrawlStatus,
  CrawlStopReason,
  CrawlView,
  FrontierCandidate,
  FrontierPage,
  HistoryOfStart,
} from './crawl.types';
export { CrawlChangesRepository } from './crawl-changes.repository';
export { CrawlRecoveryRepository } from './crawl-recovery.repository';
export { CrawlWindowRepository } from './crawl-window.repository';
export { CrawlsRepository } from './crawls.repository';
export { CreditsRepository, type LedgerRow } from './credits.repository';
export {
  createDb,
  type DatabaseSettings,
  type Db,
  type DbOptions,
  inTransaction,
  preparedStatementsFor,
  SERVICE_POOL_SIZE,
  type SharedDb,
  serviceDb,
  type Tx,
} from './db';
export { warmUpDb } from './db-warm-up';
export { DeploymentSecretsRepository, derivePurposeKey } from './deployment-secrets.repository';
export {
  type DocumentInput,
  type DocumentSearchHit,
  type DocumentSearchQuery,
  DocumentsRepository,
  indexableText,
  MAX_INDEXED_CHARS,
  primaryLanguage,
  textSearchConfigFor,
} from './documents.repository';
export { ensureDatabase } from './ensure-database';
export {
  type BatchSummary,
  type CrawlSummary,
  JobListingsRepository,
  type JobResultDetail,
  type JobResultRow,
} from './job-listings.repository';
export type {
  JobWebhookBegin,
  JobWebhookConfig,
  JobWebhookDeliveryView,
  JobWebhookDispatch,
  JobWebhookEventName,
  JobWebhookEventState,
  JobWebhookEventView,
  JobWebhookKindName,
  JobWebhookNotifier,
  JobWebhookPage,
} from './job-webhook.types';
export { INTERRUPTED_JOB_DELIVERY, JobWebhooksRepository } from './job-webhooks.repository';
export { LEDGER_REASONS, type LedgerReason } from './ledger-reason';
export { migrationDatabaseUrl } from './migration-url';
export { migrateDatabase } from './migrations';
export type {
  CheckDecision,
  CheckOutcome,
  IrrelevantChangeView,
  Judgement,
  MonitorChangeView,
  MonitorCheckView,
  MonitorDetail,
  MonitorDiff,
  MonitorInterval,
  MonitorPausedBy,
  MonitorStatus,
  MonitorView,
  WebhookDeliveryView,
  WebhookFormat,
  WebhookTask,
} from './monitor.types';
export { MonitorChecksRepository } from './monitor-checks.repository';
export { type MonitorScheduleKey, MonitorsRepository } from './monitors.repository';
export {
  type CachedPageRecord,
  DEFAULT_PAGE_CACHE_MAX_BODY_BYTES,
  PageCacheRepository,
  type PageCacheRow,
} from './page-cache.repository';
export {
  type PageHistoryLink,
  type PageHistoryRecord,
  PageHistoryRepository,
  type PageHistoryTouch,
} from './page-history.repository';
export { CREDITS_PER_USD, isPlanId, PLAN_IDS, PLANS, type PlanId } from './plans';
export { isPoolTimeout } from './pool-timeout';
export { S3ObjectStore, type S3Settings } from './s3-object-store';
export {
  readScreenshotToken,
  SCREENSHOT_TOKEN_RE,
  type ScreenshotTokenClaims,
  signScreenshotToken,
} from './screenshot-token';
export {
  createScreenshotStore,
  DEFAULT_PUBLIC_URL,
  type ScreenshotSettings,
  type ScreenshotStorage,
  type ScreenshotStoreEnv,
  ScreenshotsRepository,
  type StoredScreenshot,
} from './screenshots.repository';
export { type DashboardSessionView, SessionsRepository } from './sessions.repository';
export {
  type LedgerEntryView,
  USAGE_OPERATIONS,
  type UsageCounts,
  type UsageDay,
  type UsageOperation,
  UsageRepository,
} from './usage.repository';
export { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
