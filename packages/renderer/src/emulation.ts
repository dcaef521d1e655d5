/**
 * What `mobile` and `location` mean for both engines, in one place: the mobile user agent and
 * viewport, and a country's Accept-Language, locale and timezone. Country data comes from ICU
 * through Intl (CLDR's likely languages and a country's zones), so no table of ours goes stale.
 */
import type { RenderLocation } from './types';

/** A current Chrome on Android (the mobile user agent sites expect). */
export const MOBILE_USER_AGENT =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
/** CSS pixels and device scale factor of that phone. */
export const MOBILE_VIEWPORT = { width: 412, height: 915, deviceScaleFactor: 2.625 } as const;
/** The desktop viewport every render uses otherwise (Playwright's default). */
export const DESKTOP_VIEWPORT = { width: 1280, height: 720, deviceScaleFactor: 1 } as const;

/**
 * Intl lists a country's zones alphabetically; for countries with several, the zone most of its
 * people live in (CLDR's primary zones are not exposed by Intl). Others take their only/first zone.
 */
const PRIMARY_ZONE: Record<string, string> = {
  AR: 'America/Argentina/Buenos_Aires',
  AU: 'Australia/Sydney',
  BR: 'America/Sao_Paulo',
  CA: 'America/Toronto',
  CL: 'America/Santiago',
  CN: 'Asia/Shanghai',
  ES: 'Europe/Madrid',
  ID: 'Asia/Jakarta',
  KZ: 'Asia/Almaty',
  MX: 'America/Mexico_City',
  NZ: 'Pacific/Auckland',
  PT: 'Europe/Lisbon',
  RU: 'Europe/Moscow',
  UA: 'Europe/Kiev',
  US: 'America/New_York',
};

export interface ResolvedLocation {
  /** e.g. "de-DE,de;q=0.9,en;q=0.8" */
  acceptLanguage: string;
  /** The first language as a locale, e.g. "de-DE". */
  locale: string;
  /** An IANA zone of the country, e.g. "Europe/Berlin" (UTC when unknown). */
  timezoneId: string;
}

interface LocaleWithZones extends Intl.Locale {
  getTimeZones?: () => string[] | undefined;
  timeZones?: string[];
}

function zonesOf(country: string): string[] {
  try {
    const l = new Intl.Locale(`und-${country}`) as LocaleWithZones;
    return l.getTimeZones?.() ?? l.timeZones ?? [];
  } catch {
    return [];
  }
}

/** The country's likely language as `lang-CC` (CLDR likely subtags), e.g. DE → de-DE. */
function likelyLanguage(country: string, zones: string[]): string {
  if (zones.length === 0) return 'en-US'; // not a country ICU knows
  try {
    const max = new Intl.Locale(`und-${country}`).maximize();
    return max.region === country ? `${max.language}-${country}` : 'en-US';
  } catch {
    return 'en-US';
  }
}

/** The languages given (else the country's likely one), with their base tags, as q-weighted values. */
export function resolveLocation(location: RenderLocation): ResolvedLocation {
  const country = location.country.toUpperCase();
  const zones = zonesOf(country);
  const languages =
    location.languages && location.languages.length > 0
      ? location.languages
      : [likelyLanguage(country, zones)];
  const tags: string[] = [];
  for (const lang of languages) {
    tags.push(lang);
    const base = lang.split('-')[0] ?? lang;
    if (base !== lang && !languages.includes(base)) tags.push(base);
  }
  const unique = [...new Set(tags)];
  const acceptLanguage = unique
    .map((tag, i) => (i === 0 ? tag : `${tag};q=${Math.max(0.1, 1 - i * 0.1).toFixed(1)}`))
    .join(',');
  const primary = PRIMARY_ZONE[country];
  return {
    acceptLanguage,
    locale: languages[0] ?? 'en-US',
    timezoneId: primary && zones.includes(primary) ? primary : (zones[0] ?? 'UTC'),
  };
}
