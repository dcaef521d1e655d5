import { ConfigError, loadEnv } from './load-env';
import { baseEnv, gatewayEnv } from './schemas';

describe('environment schemas', () => {
  it('names the missing variable', () => {
    expect(() => loadEnv(baseEnv, {})).toThrow(ConfigError);
    expect(() => loadEnv(baseEnv, {})).toThrow(/DATABASE_URL: is required/);
  });

  it('parses booleans and integers from strings, with defaults', () => {
    const env = loadEnv(baseEnv, { DATABASE_URL: 'postgresql://x/y', ALLOW_PRIVATE_TARGETS: 'true' });
    expect(env.ALLOW_PRIVATE_TARGETS).toBe(true);
    expect(env.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(loadEnv(baseEnv, { DATABASE_URL: 'postgresql://x/y' }).ALLOW_PRIVATE_TARGETS).toBe(false);
    expect(() =>
      loadEnv(baseEnv, { DATABASE_URL: 'postgresql://x/y', ALLOW_PRIVATE_TARGETS: 'maybe' }),
    ).toThrow(/ALLOW_PRIVATE_TARGETS/);
    expect(loadEnv(gatewayEnv, { PORT: '4000' }).PORT).toBe(4000);
    expect(() => loadEnv(gatewayEnv, { PORT: 'x' })).toThrow(/PORT/);
  });

  it('treats an empty ADMIN_TOKEN as unset (admin off) and refuses a short one', () => {
    expect(loadEnv(gatewayEnv, { ADMIN_TOKEN: '' }).ADMIN_TOKEN).toBeUndefined();
    expect(() => loadEnv(gatewayEnv, { ADMIN_TOKEN: 'short' })).toThrow(/ADMIN_TOKEN: must be at least 16/);
  });
});
