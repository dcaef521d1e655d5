export { createApp } from './app';
export type { GatewayDeps, GatewaySettings } from './deps';
export { type GatewayEnv, gatewayEnvSchema, loadGatewayEnv } from './env';
export { type RunningGateway, startGateway } from './gateway';
export { gatewayService } from './service';
