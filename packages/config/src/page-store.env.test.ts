import { z } from 'zod';
import { ConfigError, loadEnv } from './load-env';
import { checkPageStoreEnv, pageStoreEnv, pageStoreEnvFields } from './page-store.env';
import { baseEnv } from './schemas';

const s3 = {
  SCREENSHOT_STORAGE: 's3',
  S3_ENDPOINT: 'http://minio:9000/',
  S3_BUCKET: 'shots',
  S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
  S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
};

describe('pageStoreEnv', () => {
  test('defaults: PostgreSQL storage, 24 h screenshots, 48 h cache, 10 min sweep', () => {
    expect(loadEnv(pageStoreEnv, {})).toEqual({
      SCREENSHOT_TTL_HOURS: 24,
      SCREENSHOT_STORAGE: 'postgres',
      S3_REGION: 'us-east-1',
      S3_PREFIX: 'screenshots/',
      PAGE_CACHE_TTL_HOURS: 48,
      RETENTION_SWEEP_MS: 600_000,
      CHANGE_TRACKING_RETENTION_DAYS: 30,
    });
  });

  test('PUBLIC_URL and S3_ENDPOINT lose their trailing slash; bad URLs are named', () => {
    const env = loadEnv(pageStoreEnv, { ...s3, PUBLIC_URL: 'https://scrape.example.com/base/' });
    expect(env.PUBLIC_URL).toBe('https://scrape.example.com/base');
    expect(env.S3_ENDPOINT).toBe('http://minio:9000');
    expect(() => loadEnv(pageStoreEnv, { PUBLIC_URL: 'scrape.example.com' })).toThrow(
      /PUBLIC_URL: must be an http\(s\) URL/,
    );
    expect(() => loadEnv(pageStoreEnv, { S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT: must be/);
  });

  test('PUBLIC_URL and SCREENSHOT_URL_SECRET: empty is unset; a short secret is refused', () => {
    expect(loadEnv(pageStoreEnv, { PUBLIC_URL: '' }).PUBLIC_URL).toBeUndefined();
    expect(loadEnv(pageStoreEnv, { SCREENSHOT_URL_SECRET: ' ' }).SCREENSHOT_URL_SECRET).toBeUndefined();
    const secret = 'k'.repeat(32);
    expect(loadEnv(pageStoreEnv, { SCREENSHOT_URL_SECRET: secret }).SCREENSHOT_URL_SECRET).toBe(secret);
    expect(() => loadEnv(pageStoreEnv, { SCREENSHOT_URL_SECRET: 'short' })).toThrow(
      /SCREENSHOT_URL_SECRET: must be at least 32 characters/,
    );
  });

  test('S3 storage names every missing variable', () => {
    expect(() => loadEnv(pageStoreEnv, { SCREENSHOT_STORAGE: 's3' })).toThrow(ConfigError);
    let message = '';
    try {
      loadEnv(pageStoreEnv, { SCREENSHOT_STORAGE: 's3', S3_BUCKET: 'shots', S3_ACCESS_KEY_ID: '  ' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('S3_ENDPOINT: is required when SCREENSHOT_STORAGE=s3');
    expect(message).toContain('S3_ACCESS_KEY_ID: is required when SCREENSHOT_STORAGE=s3');
    expect(message).toContain('S3_SECRET_ACCESS_KEY: is required when SCREENSHOT_STORAGE=s3');
    expect(message).not.toContain('S3_BUCKET');
    expect(loadEnv(pageStoreEnv, s3).SCREENSHOT_STORAGE).toBe('s3');
    // S3 variables without s3 storage are fine (old objects stay readable after a switch back).
    expect(loadEnv(pageStoreEnv, { ...s3, SCREENSHOT_STORAGE: 'postgres' }).S3_BUCKET).toBe('shots');
  });

  test('a composed service schema keeps the rule through checkPageStoreEnv', () => {
    const composed = baseEnv.extend(pageStoreEnvFields.shape).superRefine(checkPageStoreEnv);
    expect(() => loadEnv(composed, { SCREENSHOT_STORAGE: 's3' })).toThrow(/S3_BUCKET: is required/);
    expect(loadEnv(composed, s3).S3_BUCKET).toBe('shots');
    // Without the check the rule is gone: the reason checkPageStoreEnv exists.
    expect(z.object(pageStoreEnvFields.shape).safeParse({ SCREENSHOT_STORAGE: 's3' }).success).toBe(true);
  });

  test('numbers, prefix and bucket are validated', () => {
    expect(loadEnv(pageStoreEnv, { SCREENSHOT_TTL_HOURS: '1' }).SCREENSHOT_TTL_HOURS).toBe(1);
    expect(() => loadEnv(pageStoreEnv, { SCREENSHOT_TTL_HOURS: '0' })).toThrow(/SCREENSHOT_TTL_HOURS/);
    expect(() => loadEnv(pageStoreEnv, { RETENTION_SWEEP_MS: 'soon' })).toThrow(/RETENTION_SWEEP_MS/);
    expect(() => loadEnv(pageStoreEnv, { SCREENSHOT_STORAGE: 'disk' })).toThrow(/SCREENSHOT_STORAGE/);
    expect(() => loadEnv(pageStoreEnv, { S3_PREFIX: '/abs/' })).toThrow(/S3_PREFIX/);
    expect(() => loadEnv(pageStoreEnv, { S3_PREFIX: 'a b/' })).toThrow(/S3_PREFIX/);
    expect(loadEnv(pageStoreEnv, { S3_PREFIX: '' }).S3_PREFIX).toBe('');
    expect(() => loadEnv(pageStoreEnv, { S3_BUCKET: 'a/b' })).toThrow(/S3_BUCKET/);
  });
});
