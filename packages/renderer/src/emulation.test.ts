import { resolveLocation } from './emulation';

describe('resolveLocation', () => {
  it('derives the language and zone of a country', () => {
    expect(resolveLocation({ country: 'DE' })).toEqual({
      acceptLanguage: 'de-DE,de;q=0.9',
      locale: 'de-DE',
      timezoneId: 'Europe/Berlin',
    });
    expect(resolveLocation({ country: 'us' }).timezoneId).toBe('America/New_York');
    expect(resolveLocation({ country: 'FR' }).locale).toBe('fr-FR');
  });

  it('puts the given languages first, each followed by its base tag', () => {
    const r = resolveLocation({ country: 'CH', languages: ['fr-CH', 'en'] });
    expect(r.acceptLanguage).toBe('fr-CH,fr;q=0.9,en;q=0.8');
    expect(r.locale).toBe('fr-CH');
    expect(r.timezoneId).toBe('Europe/Zurich');
  });

  it('falls back to English and UTC for an unknown country', () => {
    expect(resolveLocation({ country: 'XX' })).toEqual({
      acceptLanguage: 'en-US,en;q=0.9',
      locale: 'en-US',
      timezoneId: 'UTC',
    });
  });
});
