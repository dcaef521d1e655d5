/**
 * ISO 639-1 language → PostgreSQL text-search configuration (stemmer + stop words). Every
 * configuration listed ships with PostgreSQL ≥ 16 (≥ 12 for most); anything unknown uses `simple`
 * (lower-casing only), which still matches exact words in any language.
 */
const CONFIG_BY_LANGUAGE: Readonly<Record<string, string>> = {
  ar: 'arabic',
  ca: 'catalan',
  da: 'danish',
  de: 'german',
  el: 'greek',
  en: 'english',
  es: 'spanish',
  eu: 'basque',
  fi: 'finnish',
  fr: 'french',
  ga: 'irish',
  hi: 'hindi',
  hu: 'hungarian',
  hy: 'armenian',
  id: 'indonesian',
  it: 'italian',
  lt: 'lithuanian',
  nb: 'norwegian',
  ne: 'nepali',
  nl: 'dutch',
  nn: 'norwegian',
  no: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sr: 'serbian',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
  yi: 'yiddish',
};

export const SIMPLE_CONFIG = 'simple';

/** Primary subtag of a BCP 47 tag, lower-cased: "de-AT" → "de", "pt_BR" → "pt"; null if not a tag. */
export function primaryLanguage(tag: string | null | undefined): string | null {
  const m = /^\s*([a-z]{2,3})(?:[-_][a-z0-9]{1,8})*\s*$/i.exec(tag ?? '');
  return m?.[1] ? m[1].toLowerCase() : null;
}

/** The configuration for a page or query language ("de-AT" → german, "ja" → simple, null → simple). */
export function textSearchConfigFor(language: string | null | undefined): string {
  const primary = primaryLanguage(language);
  return (primary && CONFIG_BY_LANGUAGE[primary]) || SIMPLE_CONFIG;
}
