export {
  jobWebhookEnv,
  loadWebhookDispatcherEnv,
  type WebhookDispatcherEnv,
  webhookDispatcherEnvSchema,
} from './env';
export {
  deliverJobWebhook,
  type JobWebhookDeps,
  type JobWebhookOptions,
  type JobWebhookResult,
  jobWebhookProcessor,
} from './job-webhook.processor';
export { jobWebhookBody } from './job-webhook-body';
export { JobWebhookRelay } from './job-webhook-relay';
export { webhookDispatcherService } from './service';
export { INTERRUPTED_DELIVERY, type WebhookResult, webhookProcessor } from './webhook.processor';
export { type RunningWebhookDispatcher, startWebhookDispatcher } from './webhook-dispatcher';
export { SIGNATURE_HEADER, signBody, TIMESTAMP_HEADER, verifySignature } from './webhook-signature';
