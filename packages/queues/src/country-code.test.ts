import { checkCountryCode, countryCode } from './country-code';

describe('country codes', () => {
  it('accepts exactly the 249 codes ISO 3166-1 assigns', () => {
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    const assigned = [...letters]
      .flatMap((a) => [...letters].map((b) => a + b))
      .filter((c) => checkCountryCode(c).ok);
    expect(assigned).toHaveLength(249);
    for (const c of ['US', 'DE', 'GB', 'AQ', 'BV', 'SS', 'CW', 'BQ', 'PS', 'TW', 'EH'])
      expect(assigned).toContain(c);
  });

  it('refuses user-assigned, grouping and withdrawn codes, naming the successor of a withdrawn one', () => {
    for (const c of ['XX', 'ZZ', 'AA', 'QM', 'QO', 'QZ', 'XA', 'XK', 'EU', 'UN', 'EZ', 'AC', 'IC', 'TA'])
      expect([c, checkCountryCode(c)]).toEqual([c, { ok: false }]);
    expect(checkCountryCode('UK')).toEqual({ ok: false, replacement: 'GB' });
    expect(checkCountryCode('SU')).toEqual({ ok: false, replacement: 'RU' });
    expect(checkCountryCode('de')).toEqual({ ok: false });
  });

  it('the schema upper-cases any case and words the refusal', () => {
    const s = countryCode('two letters');
    expect(s.parse('gb')).toBe('GB');
    expect(s.safeParse('D').error?.issues[0]?.message).toBe('two letters');
    expect(s.safeParse('xx').error?.issues[0]?.message).toBe(
      'XX is not an assigned ISO 3166-1 alpha-2 country code',
    );
    expect(s.safeParse('uk').error?.issues[0]?.message).toBe(
      'UK is not an assigned ISO 3166-1 alpha-2 country code (did you mean "GB"?)',
    );
  });
});
