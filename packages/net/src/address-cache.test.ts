import type dns from 'node:dns';
import { AddressCache } from './address-cache';
import { checkUrl, createSafeLookup, isForbiddenAddress } from './address-policy';

/** A resolver whose answers the test sets, counting the questions. */
function resolver(answers: Record<string, dns.LookupAddress[] | Error>) {
  const asked: string[] = [];
  return {
    asked,
    lookup: async (host: string) => {
      asked.push(host);
      const a = answers[host];
      if (a === undefined) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      if (a instanceof Error) throw a;
      return a;
    },
  };
}

const PUBLIC = [{ address: '93.184.216.34', family: 4 }];

describe('AddressCache', () => {
  it('asks once per host within its TTL, shares a lookup in flight, and asks again after', async () => {
    let now = 0;
    const r = resolver({ 'site.test': PUBLIC });
    const cache = new AddressCache({ ttlMs: 1_000, lookup: r.lookup, now: () => now });
    const [a, b] = await Promise.all([cache.resolve('site.test'), cache.resolve('SITE.test')]);
    expect(a).toEqual(PUBLIC);
    expect(b).toEqual(PUBLIC);
    await cache.resolve('site.test');
    expect(r.asked).toHaveLength(1);
    now = 1_000;
    await cache.resolve('site.test');
    expect(r.asked).toHaveLength(2);
  });

  it('keeps no failure: the next question asks the resolver again', async () => {
    const r = resolver({});
    const cache = new AddressCache({ lookup: r.lookup });
    await expect(cache.resolve('gone.test')).rejects.toThrow('not found');
    await expect(cache.resolve('gone.test')).rejects.toThrow('not found');
    expect(r.asked).toHaveLength(2);
  });

  it('keeps no verdict: a cached private answer is refused on every use, up front and at connect time', async () => {
    const r = resolver({ 'inside.test': [{ address: '10.0.0.5', family: 4 }], 'site.test': PUBLIC });
    const cache = new AddressCache({ lookup: r.lookup });
    for (let i = 0; i < 2; i++)
      await expect(checkUrl('http://inside.test/', isForbiddenAddress, cache)).rejects.toMatchObject({
        code: 'TARGET_FORBIDDEN',
      });
    await expect(checkUrl('http://site.test/a', isForbiddenAddress, cache)).resolves.toBeInstanceOf(URL);
    const lookup = createSafeLookup(isForbiddenAddress, cache);
    const connectLookup = (host: string) =>
      new Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) =>
        lookup(host, { family: 0 }, (err, address, family) => resolve({ err, address, family })),
      );
    const inside = await connectLookup('inside.test');
    expect(inside.err).toMatchObject({ code: 'TARGET_FORBIDDEN' });
    const site = await connectLookup('site.test');
    expect(site).toMatchObject({ err: null, address: '93.184.216.34', family: 4 });
    // One question per host for all of it.
    expect(r.asked.sort()).toEqual(['inside.test', 'site.test']);
  });

  it('stays bounded: the oldest host goes first', async () => {
    const r = resolver({ 'a.test': PUBLIC, 'b.test': PUBLIC, 'c.test': PUBLIC });
    const cache = new AddressCache({ maxHosts: 2, lookup: r.lookup });
    for (const h of ['a.test', 'b.test', 'c.test', 'c.test', 'a.test']) await cache.resolve(h);
    expect(r.asked).toEqual(['a.test', 'b.test', 'c.test', 'a.test']);
  });
});
