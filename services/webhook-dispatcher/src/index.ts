export { loadWebhookDispatcherEnv, type WebhookDispatcherEnv, webhookDispatcherEnvSchema } from './env';
export { INTERRUPTED_DELIVERY, type WebhookResult, webhookProcessor } from './webhook.processor';
export { type RunningWebhookDispatcher, startWebhookDispatcher } from './webhook-dispatcher';
export { SIGNATURE_HEADER, signBody, TIMESTAMP_HEADER, verifySignature } from './webhook-signature';
