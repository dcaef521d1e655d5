import { ConfigError, loadEnv } from './load-env';
import { baseEnv, databaseEnv, gatewayEnv, renderEnv } from './schemas';

describe('environment schemas', () => {
  it('names the missing variable', () => {
    expect(() => loadEnv(databaseEnv, {})).toThrow(ConfigError);
    expect(() => loadEnv(baseEnv.extend(databaseEnv.shape), {})).toThrow(/DATABASE_URL: is required/);
  });

  it('parses booleans and integers from strings, with defaults', () => {
    expect(loadEnv(baseEnv, {}).REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(loadEnv(renderEnv, { ALLOW_PRIVATE_TARGETS: 'true' }).ALLOW_PRIVATE_TARGETS).toBe(true);
    expect(loadEnv(renderEnv, {}).ALLOW_PRIVATE_TARGETS).toBe(false);
    expect(() => loadEnv(renderEnv, { ALLOW_PRIVATE_TARGETS: 'maybe' })).toThrow(/ALLOW_PRIVATE_TARGETS/);
    expect(loadEnv(gatewayEnv, { PORT: '4000' }).PORT).toBe(4000);
    expect(() => loadEnv(gatewayEnv, { PORT: 'x' })).toThrow(/PORT/);
  });

  it('treats an empty ADMIN_TOKEN as unset (admin off) and refuses a short one', () => {
    expect(loadEnv(gatewayEnv, { ADMIN_TOKEN: '' }).ADMIN_TOKEN).toBeUndefined();
    expect(() => loadEnv(gatewayEnv, { ADMIN_TOKEN: 'short' })).toThrow(/ADMIN_TOKEN: must be at least 16/);
  });
});
