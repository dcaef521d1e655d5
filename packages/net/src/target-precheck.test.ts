import type dns from 'node:dns';
import { DnsResolutionError, InvalidUrlError, TargetForbiddenError } from '@wcs/errors';
import { isForbiddenAddress } from './address-policy';
import { type LookupAll, precheckTarget } from './target-precheck';

const answers =
  (...addresses: string[]): LookupAll =>
  async () =>
    addresses.map((address): dns.LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));

const strict = { isForbidden: isForbiddenAddress, timeoutMs: 2_000 };
const open = { isForbidden: undefined, timeoutMs: 2_000 };

describe('precheckTarget', () => {
  it('judges IP literals without a lookup', async () => {
    const lookup = jest.fn<ReturnType<LookupAll>, Parameters<LookupAll>>();
    await expect(precheckTarget('http://10.0.0.1/x', { ...strict, lookup })).rejects.toBeInstanceOf(
      TargetForbiddenError,
    );
    await expect(precheckTarget('http://[::1]:8080/', { ...strict, lookup })).rejects.toBeInstanceOf(
      TargetForbiddenError,
    );
    await expect(precheckTarget('http://93.184.215.14/', { ...strict, lookup })).resolves.toBe('checked');
    await expect(precheckTarget('http://127.0.0.1:9/', { ...open, lookup })).resolves.toBe('checked');
    expect(lookup).not.toHaveBeenCalled();
  });

  it('refuses a name when any of its addresses is forbidden, naming the address', async () => {
    const err = await precheckTarget('https://intranet.example/', {
      ...strict,
      lookup: answers('93.184.215.14', '192.168.1.5'),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetForbiddenError);
    expect(err).toMatchObject({ details: { host: 'intranet.example', address: '192.168.1.5' } });
    await expect(
      precheckTarget('https://site.example/', { ...strict, lookup: answers('93.184.215.14') }),
    ).resolves.toBe('checked');
    // Private targets allowed: any address will do, but the name must resolve.
    await expect(
      precheckTarget('https://intranet.example/', { ...open, lookup: answers('192.168.1.5') }),
    ).resolves.toBe('checked');
  });

  it('a name that does not resolve is DNS_RESOLUTION_FAILED, with private targets allowed or not', async () => {
    const enotfound: LookupAll = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    for (const policy of [strict, open]) {
      await expect(
        precheckTarget('http://nowhere.example/', { ...policy, lookup: enotfound }),
      ).rejects.toMatchObject({
        code: 'DNS_RESOLUTION_FAILED',
        status: 400,
        details: { host: 'nowhere.example' },
      });
      await expect(
        precheckTarget('http://empty.example/', { ...policy, lookup: answers() }),
      ).rejects.toBeInstanceOf(DnsResolutionError);
    }
  });

  it('a lookup that does not answer within the budget decides nothing', async () => {
    const never: LookupAll = () => new Promise(() => undefined);
    await expect(
      precheckTarget('http://slow.example/', {
        isForbidden: isForbiddenAddress,
        timeoutMs: 50,
        lookup: never,
      }),
    ).resolves.toBe('dns-timeout');
  });

  it('refuses other schemes and credentials before any lookup', async () => {
    const lookup = jest.fn<ReturnType<LookupAll>, Parameters<LookupAll>>();
    await expect(precheckTarget('ftp://files.example/', { ...open, lookup })).rejects.toBeInstanceOf(
      TargetForbiddenError,
    );
    await expect(precheckTarget('http://u:p@site.example/', { ...open, lookup })).rejects.toBeInstanceOf(
      TargetForbiddenError,
    );
    await expect(precheckTarget('not a url', { ...open, lookup })).rejects.toBeInstanceOf(InvalidUrlError);
    expect(lookup).not.toHaveBeenCalled();
  });

  it('uses the system resolver by default (hosts file and a reserved TLD)', async () => {
    await expect(precheckTarget('http://localhost:9/', strict)).rejects.toBeInstanceOf(TargetForbiddenError);
    await expect(precheckTarget('http://localhost:9/', open)).resolves.toBe('checked');
    await expect(precheckTarget('http://nonexistent.invalid/', open)).rejects.toBeInstanceOf(
      DnsResolutionError,
    );
  });
});
