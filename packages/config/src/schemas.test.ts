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

describe('PROXY_URLS', () => {
  it('parses a comma-separated list of http, https, socks5 and socks5h URLs (empty = none)', () => {
    expect(loadEnv(renderEnv, {}).PROXY_URLS).toEqual([]);
    expect(loadEnv(renderEnv, { PROXY_URLS: '' }).PROXY_URLS).toEqual([]);
    expect(
      loadEnv(renderEnv, {
        PROXY_URLS:
          ' http://u:p@proxy.lan:3128, https://proxy.lan:443 ,socks5://10.0.0.2:1080,socks5h://[::1]:9050, http://p:80',
      }).PROXY_URLS,
    ).toEqual([
      'http://u:p@proxy.lan:3128',
      'https://proxy.lan:443',
      'socks5://10.0.0.2:1080',
      'socks5h://[::1]:9050',
      'http://p:80',
    ]);
  });

  it('stops on a bad entry, naming the variable and the entry but never its credentials', () => {
    for (const [bad, why] of [
      ['ftp://alice:hunter2@proxy:21', /PROXY_URLS: entry 1 has scheme "ftp"/],
      ['http://ok:1,socks4://alice:hunter2@proxy:1080', /PROXY_URLS: entry 2 has scheme "socks4"/],
      ['http://alice:hunter2@proxy', /PROXY_URLS: entry 1 \(proxy\) has no port/],
      ['http://alice:hunter2@proxy:3128/path', /PROXY_URLS: entry 1 \(proxy\) must not have a path/],
      ['alice:hunter2@proxy:3128', /PROXY_URLS: entry 1/],
      ['http://alice:hunter2@proxy:99999', /PROXY_URLS: entry 1 is not a URL/],
    ] as const) {
      let message = '';
      try {
        loadEnv(renderEnv, { PROXY_URLS: bad });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        message = (err as Error).message;
      }
      expect(message).toMatch(why);
      expect(message).not.toContain('hunter2');
      expect(message).not.toContain('alice');
    }
  });
});
