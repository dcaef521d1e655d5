/**
 * What the common bot-wall vendors put in their answers: headers that name the vendor, and the
 * markup of their challenge, captcha and block pages (from their public pages and integration
 * docs). A marker only says "this is a wall" on a small page: many of them (challenge scripts,
 * `_Incapsula_Resource`, DataDome's tag) also ride along on ordinary pages of protected sites.
 */
import { nearNeedle } from './text-measure';
import type { BlockReason } from './verdict.types';

type Headers = Readonly<Record<string, string>>;

const has = (h: Headers, name: string): boolean => h[name] !== undefined;

/** The wall vendor an answer's headers name, if any (cookies included). */
export function headerVendor(h: Headers): string | undefined {
  const server = (h.server ?? '').toLowerCase();
  const cookies = h['set-cookie'] ?? '';
  if (has(h, 'cf-mitigated') || has(h, 'cf-ray') || server.includes('cloudflare')) return 'cloudflare';
  if (has(h, 'x-datadome') || has(h, 'x-datadome-cid') || /(?:^|[\s,;])datadome=/i.test(cookies))
    return 'datadome';
  if (has(h, 'x-amzn-waf-action')) return 'aws-waf';
  if (
    has(h, 'x-iinfo') ||
    /incapsula|imperva/i.test(h['x-cdn'] ?? '') ||
    /incap_ses|visid_incap/i.test(cookies)
  )
    return 'imperva';
  if (server.includes('akamaighost') || has(h, 'akamai-grn')) return 'akamai';
  if (server.includes('ddos-guard') || /__ddg[12]/.test(cookies)) return 'ddos-guard';
  if (has(h, 'x-sucuri-id') || has(h, 'x-sucuri-block') || server.includes('sucuri')) return 'sucuri';
  if (Object.keys(h).some((k) => k.startsWith('x-kpsdk'))) return 'kasada';
  if (has(h, 'x-vercel-mitigated')) return 'vercel';
  if (server.includes('bigip') || server.includes('big-ip')) return 'f5';
  return undefined;
}

/** Walls the headers alone prove (the vendor says it answered with a challenge). */
export function headerWall(h: Headers): { reason: BlockReason; vendor: string; signal: string } | undefined {
  if (h['cf-mitigated'] === 'challenge')
    return { reason: 'challenge', vendor: 'cloudflare', signal: 'header:cf-mitigated' };
  const aws = h['x-amzn-waf-action']?.toLowerCase();
  if (aws === 'challenge' || aws === 'captcha')
    return { reason: aws, vendor: 'aws-waf', signal: 'header:x-amzn-waf-action' };
  if (h['x-vercel-mitigated'] === 'challenge')
    return { reason: 'challenge', vendor: 'vercel', signal: 'header:x-vercel-mitigated' };
  if (has(h, 'x-sucuri-block'))
    return { reason: 'access-denied', vendor: 'sucuri', signal: 'header:x-sucuri-block' };
  return undefined;
}

export interface MarkupRule {
  reason: BlockReason;
  vendor?: string;
  re: RegExp;
  /** Short name for VerdictResult.signals. */
  name: string;
  /**
   * Literal strings (as the vendor writes them) one of which the markup must hold before `re` is
   * tried: indexOf is far cheaper than a case-insensitive regex over a whole page.
   */
  needles: readonly string[];
}

/** The rule matches: a needle is there and the pattern confirms it. */
export const matches = (rule: MarkupRule, body: string): boolean => nearNeedle(body, rule.needles, rule.re);

/**
 * The needles of `rules` a page holds, in one pass of one regex (hot, so V8 compiles it; many
 * indexOf calls over a large page cost more). A needle inside a longer one may be reported as the
 * longer one: `mayMatch` accepts either way round.
 */
export class NeedleScan {
  private readonly all: RegExp;
  constructor(rules: readonly MarkupRule[]) {
    const needles = [...new Set(rules.flatMap((r) => r.needles))].sort((a, b) => b.length - a.length);
    this.all = new RegExp(needles.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'), 'g');
  }
  /** Distinct needles found (at most the first 256 occurrences are read). */
  find(body: string): Set<string> {
    const found = new Set<string>();
    this.all.lastIndex = 0;
    for (let m = this.all.exec(body), k = 0; m && k < 256; m = this.all.exec(body), k++) found.add(m[0]);
    return found;
  }
}

/** Whether `found` (NeedleScan.find) holds one of the rule's needles. */
export const mayMatch = (rule: MarkupRule, found: ReadonlySet<string>): boolean => {
  for (const f of found) for (const n of rule.needles) if (f.includes(n) || n.includes(f)) return true;
  return false;
};

/**
 * Markup only a wall page carries, most specific first (a DataDome captcha page also preconnects
 * to its tag's host). Read on small pages only (block-signals.ts).
 */
export const WALL_MARKUP: readonly MarkupRule[] = [
  {
    name: 'cloudflare-challenge',
    needles: [
      '_cf_chl_',
      '/cdn-cgi/challenge-platform/h/',
      'cf-browser-verification',
      'challenge-form',
      'challenge-stage',
      'challenge-running',
      'challenges.css',
    ],
    reason: 'challenge',
    vendor: 'cloudflare',
    re: /window\._cf_chl_opt|\/cdn-cgi\/challenge-platform\/h\/[a-z]\/orchestrate\/(?:chl_page|jsch|managed|captcha)|cf-browser-verification|__cf_chl_(?:jschl|captcha|f|rt)_tk|id=["']?(?:challenge-form|challenge-stage|challenge-running|cf-challenge-running)\b|\/cdn-cgi\/styles\/challenges\.css/i,
  },
  {
    name: 'cloudflare-rate-limit',
    needles: ['1015', 'rate limited'],
    reason: 'rate-limited',
    vendor: 'cloudflare',
    re: /error(?:<\/span>\s*<span>|\s+)1015|you are being rate limited|cf-error-code">1015/i,
  },
  {
    name: 'cloudflare-block',
    needles: ['Cloudflare', 'been blocked', 'cf-error-code'],
    reason: 'access-denied',
    vendor: 'cloudflare',
    re: /<title>\s*Attention Required! \| Cloudflare|used Cloudflare to restrict access|Sorry, you have been blocked<\/h1>|cf-error-code">10(?:0\d|1[0-46-9]|20)\b/i,
  },
  {
    name: 'datadome-interstitial',
    needles: ['captcha-delivery', "'rt'", '"rt"'],
    reason: 'challenge',
    vendor: 'datadome',
    re: /\bdd\s*=\s*\{\s*['"]rt['"]\s*:\s*['"]i['"]|interstitial\.captcha-delivery\.com/i,
  },
  {
    name: 'datadome-captcha',
    needles: ['captcha-delivery', "'rt'", '"rt"'],
    reason: 'captcha',
    vendor: 'datadome',
    re: /captcha-delivery\.com|\bdd\s*=\s*\{\s*['"]rt['"]\s*:\s*['"]c['"]/i,
  },
  {
    name: 'perimeterx-captcha',
    needles: ['px-captcha', 'px-cdn', 'px-cloud', 'perimeterx', '_pxCaptcha', 'automation tools'],
    reason: 'captcha',
    vendor: 'perimeterx',
    re: /id=["']?px-captcha\b|captcha\.px-cdn\.net|px-cloud\.net\/[^"'\s]*captcha|perimeterx\.(?:com|net)\/whywasiblocked|_pxCaptcha|denied because we believe you are using automation tools/i,
  },
  {
    name: 'imperva-incident',
    needles: ['Incapsula', 'Imperva'],
    reason: 'access-denied',
    vendor: 'imperva',
    re: /Incapsula incident ID|Request unsuccessful\. Incapsula|Powered by Imperva[\s\S]{0,200}incident/i,
  },
  {
    name: 'imperva-interruption',
    needles: ['think you were a bot', 'distil'],
    reason: 'captcha',
    vendor: 'imperva',
    re: /made us think you were a bot|distilCaptchaForm|distilCallbackGuard|distil_r_captcha/i,
  },
  {
    name: 'imperva-challenge',
    needles: ['_Incapsula_Resource'],
    reason: 'challenge',
    vendor: 'imperva',
    re: /\/_Incapsula_Resource\b/i,
  },
  {
    name: 'akamai-challenge',
    needles: ['/_sec/cp_challenge', 'sec-if-cpt', 'sec-cpt-if', 'bm-verify', 'akamai-challenge'],
    reason: 'challenge',
    vendor: 'akamai',
    re: /\/_sec\/cp_challenge\/|sec-if-cpt-container|id=["']?sec-cpt-if\b|\bbm-verify\b|akamai-challenge/i,
  },
  {
    name: 'akamai-denied',
    needles: ['edgesuite', 'Reference'],
    reason: 'access-denied',
    vendor: 'akamai',
    // the page writes its dots and spaces as entities (&#46; &#32;)
    re: /errors(?:\.|&#46;)edgesuite(?:\.|&#46;)net|Reference(?:&#32;|\s)(?:&#35;|#)\s*\d{1,3}(?:\.|&#46;)[0-9a-f]{6,}(?:\.|&#46;)\d{9,}(?:\.|&#46;)[0-9a-f]+/i,
  },
  {
    name: 'aws-waf-captcha',
    needles: ['awswaf', 'AwsWaf', 'CaptchaScript'],
    reason: 'captcha',
    vendor: 'aws-waf',
    re: /captcha\.awswaf\.com|awswaf\.com\/[^"'\s]*captcha\.js|AwsWafCaptcha|CaptchaScript\.renderCaptcha/i,
  },
  {
    name: 'aws-waf-challenge',
    needles: ['awswaf', 'AwsWaf', 'gokuProps', 'awsWaf'],
    reason: 'challenge',
    vendor: 'aws-waf',
    re: /awswaf\.com\/[^"'\s]*challenge\.js|AwsWafIntegration|window\.gokuProps|awsWafCookieDomainList/i,
  },
  {
    name: 'ddos-guard',
    needles: ['ddos-guard', 'DDoS-Guard', '__ddg_'],
    reason: 'challenge',
    vendor: 'ddos-guard',
    re: /check\.ddos-guard\.net|ddos-guard\.net\/[^"'\s]*\.js|<title>\s*DDoS-Guard\s*<\/title>|__ddg_[a-z]/i,
  },
  {
    name: 'sucuri-challenge',
    needles: ['sucuri_cloudproxy'],
    reason: 'challenge',
    vendor: 'sucuri',
    re: /sucuri_cloudproxy_js/i,
  },
  {
    name: 'sucuri-block',
    needles: ['Sucuri', 'sucuri'],
    reason: 'access-denied',
    vendor: 'sucuri',
    re: /Sucuri WebSite Firewall|cloudproxy@sucuri\.net|sucuri\.net\/privacy-policy|sucuri[-_]firewall[-_]block/i,
  },
  {
    name: 'kasada',
    needles: ['KPSDK', 'ips.js'],
    reason: 'challenge',
    vendor: 'kasada',
    re: /\bKPSDK\b|\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/ips\.js/i,
  },
  {
    name: 'f5-rejected',
    needles: ['URL was rejected'],
    reason: 'access-denied',
    vendor: 'f5',
    re: /The requested URL was rejected\. Please consult with your administrator/i,
  },
  {
    name: 'wordfence',
    needles: ['access to this site has been limited', 'Wordfence'],
    reason: 'access-denied',
    vendor: 'wordfence',
    re: /Your access to this site has been limited by the site owner|Generated by Wordfence/i,
  },
  {
    name: 'anubis',
    needles: ['not a bot', 'anubis'],
    reason: 'challenge',
    vendor: 'anubis',
    re: /Making sure you(?:'|&#39;|’)re not a bot|id=["']?anubis_challenge\b|\/\.within\.website\/x\/cmd\/anubis/i,
  },
  {
    name: 'vercel-checkpoint',
    needles: ['Vercel Security Checkpoint'],
    reason: 'challenge',
    vendor: 'vercel',
    re: /Vercel Security Checkpoint/i,
  },
  {
    name: 'radware-captcha',
    needles: ['perfdrive', 'Radware Bot Manager', 'ShieldSquare'],
    reason: 'captcha',
    vendor: 'radware',
    re: /validate\.perfdrive\.com|Radware Bot Manager (?:Captcha|Block)|ShieldSquare (?:Captcha|Block)/i,
  },
  {
    name: 'google-sorry',
    needles: ['unusual traffic'],
    reason: 'captcha',
    vendor: 'recaptcha',
    re: /Our systems have detected unusual traffic from your computer network/i,
  },
];

/**
 * Captcha widgets: on a wall page they are the wall; on a contact form or under a post they are
 * a form field. block-signals.ts counts them only with wall wording or on a near-empty page.
 */
export const CAPTCHA_WIDGETS: readonly MarkupRule[] = [
  {
    name: 'recaptcha',
    needles: ['g-recaptcha', 'recaptcha/api', 'recaptcha/enterprise', 'recaptcha.net'],
    reason: 'captcha',
    vendor: 'recaptcha',
    re: /class=["'][^"']*\bg-recaptcha\b|google\.com\/recaptcha\/(?:api|enterprise)\.js|recaptcha\.net\/recaptcha/i,
  },
  {
    name: 'hcaptcha',
    needles: ['h-captcha', 'hcaptcha.com'],
    reason: 'captcha',
    vendor: 'hcaptcha',
    re: /class=["'][^"']*\bh-captcha\b|hcaptcha\.com\/1\/api\.js/i,
  },
  {
    name: 'turnstile',
    needles: ['cf-turnstile', 'challenges.cloudflare.com/turnstile'],
    reason: 'captcha',
    vendor: 'turnstile',
    re: /class=["'][^"']*\bcf-turnstile\b|challenges\.cloudflare\.com\/turnstile/i,
  },
  {
    name: 'arkose',
    needles: ['funcaptcha', 'arkoselabs'],
    reason: 'captcha',
    vendor: 'arkose',
    re: /funcaptcha\.com|arkoselabs\.com/i,
  },
];

/** One scan for every wall's and widget's needles. */
export const WALL_NEEDLES = new NeedleScan([...WALL_MARKUP, ...CAPTCHA_WIDGETS]);
