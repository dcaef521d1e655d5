export { createApp } from './app';
export type { GatewayDeps, GatewaySettings } from './deps';
export { type GatewayEnv, gatewayEnvSchema, loadGatewayEnv } from './env';
export { REFUSED_FIRECRAWL_OPTIONS, type RefusedOption } from './firecrawl/refused-options.compat';
export { type GatewayShared, type RunningGateway, startGateway } from './gateway';
export { gatewayService } from './service';
