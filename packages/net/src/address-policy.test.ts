import dns from 'node:dns';
import { DnsResolutionError, InvalidUrlError, TargetForbiddenError } from '@wcs/errors';
import { type FixtureSite, startFixtureSite } from '@wcs/testing';
import type { Dispatcher } from 'undici';
import { assertAllowedUrl, createSafeDispatcher, isForbiddenAddress } from './address-policy';

describe('isForbiddenAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.1',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.254',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '240.0.0.1',
    '192.0.2.10',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '[::1]',
    'not-an-ip',
    '',
  ])('refuses %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
  ])('allows public %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});

describe('assertAllowedUrl', () => {
  const strict = { allowPrivateTargets: false };

  it.each(['file:///etc/passwd', 'ftp://example.com/x', 'data:text/html,<p>x</p>', 'javascript:alert(1)'])(
    'always refuses the scheme of %s',
    async (url) => {
      await expect(assertAllowedUrl(url, strict)).rejects.toBeInstanceOf(TargetForbiddenError);
      await expect(assertAllowedUrl(url, { allowPrivateTargets: true })).rejects.toBeInstanceOf(
        TargetForbiddenError,
      );
    },
  );

  it('refuses URLs with credentials and rejects garbage', async () => {
    await expect(assertAllowedUrl('http://user:pw@93.184.216.34/', strict)).rejects.toBeInstanceOf(
      TargetForbiddenError,
    );
    await expect(assertAllowedUrl('not a url', strict)).rejects.toBeInstanceOf(InvalidUrlError);
  });

  it.each([
    'http://127.0.0.1/',
    'http://localhost:8080/',
    'http://10.1.2.3/',
    'http://172.20.0.5/',
    'http://192.168.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.1.1/',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://2130706433/', // 127.0.0.1 as a decimal integer
    'http://0x7f.0.0.1/',
  ])('refuses private target %s', async (url) => {
    await expect(assertAllowedUrl(url, strict)).rejects.toBeInstanceOf(TargetForbiddenError);
  });

  it('allows public IP literals and private targets when allowPrivateTargets is true', async () => {
    await expect(assertAllowedUrl('https://93.184.216.34/x', strict)).resolves.toBeInstanceOf(URL);
    await expect(
      assertAllowedUrl('http://127.0.0.1/', { allowPrivateTargets: true }),
    ).resolves.toBeInstanceOf(URL);
  });

  it('maps an unresolvable host to DnsResolutionError', async () => {
    await expect(assertAllowedUrl('http://does-not-exist.invalid/', strict)).rejects.toBeInstanceOf(
      DnsResolutionError,
    );
  });
});

describe('createSafeDispatcher (connect-time check)', () => {
  let site: FixtureSite;
  let dispatcher: Dispatcher;
  beforeAll(async () => {
    site = await startFixtureSite({ pages: 2 });
    dispatcher = createSafeDispatcher({ allowPrivateTargets: false, connectTimeoutMs: 2_000 });
  });
  afterAll(async () => {
    await dispatcher.close();
    await site.close();
  });
  afterEach(() => jest.restoreAllMocks());

  const get = (origin: string) => dispatcher.request({ origin, path: '/', method: 'GET' });

  it('refuses an IP literal and a hostname resolving to loopback, without reaching the server', async () => {
    await expect(get(`http://127.0.0.1:${site.port}`)).rejects.toBeInstanceOf(TargetForbiddenError);
    await expect(get(`http://localhost:${site.port}`)).rejects.toBeInstanceOf(TargetForbiddenError);
    expect(site.hits('/')).toBe(0);
  });

  it('defeats DNS rebinding: a host that passed the pre-check but resolves privately at connect is refused', async () => {
    // First answer (pre-check) is public, the answer at connect time is loopback.
    jest
      .spyOn(dns.promises, 'lookup')
      .mockResolvedValue([{ address: '93.184.216.34', family: 4 }] as unknown as dns.LookupAddress);
    const url = await assertAllowedUrl(`http://rebind.test:${site.port}/`, { allowPrivateTargets: false });
    const realLookup = dns.lookup;
    jest
      .spyOn(dns, 'lookup')
      .mockImplementation(((host: string, opts: dns.LookupAllOptions, cb: never) =>
        realLookup(host === 'rebind.test' ? 'localhost' : host, opts, cb)) as unknown as typeof dns.lookup);
    await expect(get(url.origin)).rejects.toBeInstanceOf(TargetForbiddenError);
    expect(site.hits('/')).toBe(0);
  });

  it('lets everything through when allowPrivateTargets is true', async () => {
    const open = createSafeDispatcher({ allowPrivateTargets: true, connectTimeoutMs: 2_000 });
    try {
      const res = await open.request({ origin: site.url, path: '/text', method: 'GET' });
      expect(res.statusCode).toBe(200);
      await res.body.text();
    } finally {
      await open.close();
    }
  });
});
