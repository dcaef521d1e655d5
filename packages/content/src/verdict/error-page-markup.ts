/**
 * Default error pages of CDNs and frameworks, recognised by their own markup: they explain
 * themselves at some length ("What happened?", "Description: …"), so the short-page rule on the
 * title misses them, and a proxy or a cache may relay them with 200.
 */
interface ErrorMarkupRule {
  name: string;
  /** Literal strings one of which must be in the markup before `re` is tried. */
  needles: readonly string[];
  /** Group 1, when there, is the status the page shows. */
  re: RegExp;
  /** The status shown when the markup does not say it. */
  status: number;
}

const RULES: readonly ErrorMarkupRule[] = [
  {
    // Cloudflare's 5xx pages ("Error code 522", errorcode_521 in their links)
    name: 'cloudflare-5xx',
    needles: ['errorcode_5', 'Error code 5', 'cf-error-code'],
    re: /utm_source=errorcode_(5\d\d)\b|>\s*Error code (5\d\d)\s*<|cf-error-code["']?>\s*(5\d\d)\b/,
    status: 500,
  },
  {
    name: 'spring-whitelabel',
    needles: ['Whitelabel Error Page'],
    re: /<h1>\s*Whitelabel Error Page\s*<\/h1>[\s\S]{0,600}?status=(\d{3})\)/,
    status: 500,
  },
  {
    name: 'aspnet-server-error',
    needles: ['Server Error in '],
    re: /<h1>\s*Server Error in ['‘][^'’<]{0,80}['’] Application/i,
    status: 500,
  },
  {
    name: 'varnish-guru',
    needles: ['Guru Meditation'],
    re: /<title>\s*(5\d\d)\b[^<]*<\/title>[\s\S]{0,1000}<h3>\s*Guru Meditation|<h3>\s*Guru Meditation:?\s*<\/h3>/i,
    status: 503,
  },
];

/** Their pages are small: larger answers are not read. */
const MAX_BODY = 128_000;

/**
 * The default error page an answer is, with the status it shows (a 404 included), if any. The
 * caller asks only of pages showing few words: an article quoting the markup is not one.
 */
export function errorPageMarkup(body: string): { name: string; status: number } | undefined {
  if (body.length > MAX_BODY) return undefined;
  for (const rule of RULES) {
    if (!rule.needles.some((n) => body.includes(n))) continue;
    const m = rule.re.exec(body);
    if (!m) continue;
    const shown = m.slice(1).find((g) => g !== undefined);
    return { name: rule.name, status: shown ? Number(shown) : rule.status };
  }
  return undefined;
}
