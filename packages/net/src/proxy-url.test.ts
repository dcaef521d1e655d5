import { InvalidUrlError } from '@wcs/errors';
import { parseProxyList, parseProxyUrl, redactProxyUrl } from './proxy-url';

describe('proxy URLs', () => {
  it('parses each scheme with its default port and decoded credentials', () => {
    expect(parseProxyUrl('http://u%40x:p%3Ass@proxy.local:3128')).toMatchObject({
      scheme: 'http',
      host: 'proxy.local',
      port: 3128,
      username: 'u@x',
      password: 'p:ss',
      label: 'proxy.local:3128',
      redacted: 'http://***:***@proxy.local:3128',
    });
    expect(parseProxyUrl('https://proxy.local')).toMatchObject({ port: 443, label: 'proxy.local:443' });
    expect(parseProxyUrl('socks5://10.0.0.5')).toMatchObject({ scheme: 'socks5', port: 1080 });
    expect(parseProxyUrl('SOCKS5H://[::1]:9050')).toMatchObject({
      scheme: 'socks5h',
      host: '::1',
      label: '[::1]:9050',
    });
    expect(parseProxyUrl('http://proxy:8080').username).toBeUndefined();
  });

  it('refuses other schemes, paths and garbage without echoing credentials', () => {
    for (const bad of [
      'ftp://user:hunter2@proxy:21',
      'socks4://user:hunter2@proxy:1080',
      'http://user:hunter2@proxy:3128/path',
      'http://user:hunter2@proxy:99999',
      'user:hunter2@proxy',
      'alice:hunter2@proxy:3128',
      'http://user:hunter2@',
    ]) {
      const err = (() => {
        try {
          parseProxyUrl(bad);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(err).toBeInstanceOf(InvalidUrlError);
      expect(String((err as Error).message)).not.toMatch(/hunter2|nter2|alice/);
      expect(JSON.stringify(err)).not.toContain('hunter2');
    }
  });

  it('redacts credentials, and keeps URLs without them as they are', () => {
    expect(redactProxyUrl('socks5://alice:hunter2@127.0.0.1:1080')).toBe('socks5://***:***@127.0.0.1:1080');
    expect(redactProxyUrl('http://alice@proxy:3128/')).toBe('http://***:***@proxy:3128');
    expect(redactProxyUrl('http://proxy:3128')).toBe('http://proxy:3128');
    expect(redactProxyUrl('not a url:hunter2@proxy')).toBe('***@proxy');
    expect(redactProxyUrl('alice:hunter2@proxy:3128')).toBe('***@proxy:3128');
  });

  it('splits a comma-separated list, skipping empty entries', () => {
    expect(parseProxyList(' http://a:1 , ,socks5://b:2,').map((p) => p.label)).toEqual(['a:1', 'b:2']);
    expect(parseProxyList(undefined)).toEqual([]);
  });
});
