export { createApp } from './app';
export type { GatewayDeps, GatewaySettings } from './deps';
export { gatewayEnvSchema, loadGatewayEnv, type GatewayEnv } from './env';
export { startGateway, type RunningGateway } from './gateway';
