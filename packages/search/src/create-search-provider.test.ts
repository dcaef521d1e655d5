import { ConfigError, searchEnv, searchProviderConfig } from '@wcs/config';
import type { DocumentsRepository } from '@wcs/db';
import { createSearchProvider } from './create-search-provider';

const configFor = (env: Record<string, string>) => searchProviderConfig(searchEnv.parse(env));
// Building a provider does not touch the repository; a stand-in object is enough here.
const deps = { documents: {} as DocumentsRepository };

describe('search provider configuration', () => {
  it('defaults to the embedded provider, which needs no settings', () => {
    expect(configFor({})).toEqual({ provider: 'embedded', timeoutMs: 10_000, indexWaitMs: 2_000 });
    expect(createSearchProvider(configFor({}), deps).name).toBe('embedded');
  });

  it('searxng and brave need their URL / key, and the error names the variable', () => {
    expect(() => configFor({ SEARCH_PROVIDER: 'searxng' })).toThrow(ConfigError);
    expect(() => configFor({ SEARCH_PROVIDER: 'searxng' })).toThrow(/SEARXNG_URL: is required/);
    expect(() => configFor({ SEARCH_PROVIDER: 'brave', BRAVE_API_KEY: ' ' })).toThrow(/BRAVE_API_KEY/);
    expect(searchEnv.safeParse({ SEARXNG_URL: 'searxng:8080' }).success).toBe(false);
    expect(searchEnv.safeParse({ SEARCH_PROVIDER: 'google' }).success).toBe(false);
  });

  it('builds the configured provider', () => {
    const sx = configFor({ SEARCH_PROVIDER: 'searxng', SEARXNG_URL: 'http://searxng:8080' });
    expect(createSearchProvider(sx, deps).name).toBe('searxng');
    const brave = configFor({ SEARCH_PROVIDER: 'brave', BRAVE_API_KEY: 'k' });
    expect(brave).toMatchObject({ braveBaseUrl: 'https://api.search.brave.com/res/v1', braveApiKey: 'k' });
    expect(createSearchProvider(brave, deps).name).toBe('brave');
  });
});
