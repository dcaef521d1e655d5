/**
 * What wall, error and parking pages say, in the languages the service meets most. Matched
 * against a page's title and first <h1> (and, on tiny pages, its whole text) — never alone:
 * page-verdict.ts also asks for a small page, so an article about 404 pages stays an article.
 */
import { nearNeedle } from './text-measure';
import type { BlockReason } from './verdict.types';

/** "Page not found" in en, de, fr, es, it, pt, nl, pl, ru, ja, zh, and a few more. */
export const NOT_FOUND = new RegExp(
  [
    String.raw`\bnot\s+found\b`,
    String.raw`page\s+(?:you\s+(?:are|were|['’]re)\s+looking\s+for|you\s+requested|requested)?\s*(?:could\s*n[o'’]t|can\s*n[o'’]t|cannot|does\s*n[o'’]t|did\s*n[o'’]t|does\s+not|was\s+not|is\s+not|isn['’]t)\s+(?:be\s+)?(?:found|exist|available)`,
    String.raw`(?:page|content)\s+(?:does\s*n[o'’]?t|does\s+not|no\s+longer)\s+exist`,
    String.raw`(?:can(?:no|'|’)?t|could\s*n[o'’]?t|unable\s+to)\s+find\s+(?:that|the|this|what)\s+(?:page|you)`,
    String.raw`(?:that|this)\s+page\s+can(?:no|'|’)?t\s+be\s+found`,
    String.raw`nothing\s+(?:was\s+)?found\s+(?:here|at\s+this)`,
    String.raw`seite\s+(?:wurde\s+)?nicht\s+gefunden|seite\s+(?:konnte\s+)?nicht\s+gefunden|seite\s+existiert\s+nicht|nicht\s+gefunden|fehler\s*404`,
    String.raw`page\s+(?:introuvable|non\s+trouv[ée]e|inexistante)|page\s+n['’]existe\s+(?:pas|plus)|erreur\s*404|introuvable`,
    String.raw`p[áa]gina\s+no\s+(?:encontrada|existe|disponible)|no\s+se\s+(?:ha\s+)?(?:encontr[óo]|pudo\s+encontrar)|error\s*404`,
    String.raw`pagina\s+non\s+(?:trovata|esiste|disponibile)|errore\s*404`,
    String.raw`p[áa]gina\s+n[ãa]o\s+(?:encontrada|existe)|erro\s*404`,
    String.raw`pagina\s+(?:niet\s+gevonden|bestaat\s+niet)|niet\s+gevonden|fout\s*404`,
    String.raw`nie\s+znaleziono|strona\s+nie\s+(?:zosta[łl]a\s+znaleziona|istnieje)|b[łl][ąa]d\s*404`,
    String.raw`страни[цч]\S*\s+не\s+(?:найден|существует)|не\s+найден|ошибка\s*404`,
    String.raw`sayfa\s+bulunamad|sidan\s+(?:kunde\s+inte\s+hittas|hittades\s+inte)|str[áa]nka\s+nenalezena|siden\s+blev\s+ikke\s+fundet|sivua\s+ei\s+l[öo]ytynyt`,
    'ページが見つかりません|ページは見つかりません|お探しのページ|ページは存在しません|見つかりませんでした',
    String.raw`页面不存在|页面未找到|找不到(?:页面|網頁|网页|頁面)|頁面不存在|网页不存在|您访问的页面|404\s*错误`,
    String.raw`페이지를\s*찾을\s*수\s*없습니다`,
  ].join('|'),
  'i',
);

/**
 * "404" alone in a title is a year, a model or a route number on plenty of real pages; a leading
 * "404" followed by more of a word ("404ページの作り方") or by "page(s)" as a topic is about 404s.
 */
export const NOT_FOUND_WEAK =
  /^\s*(?:error\s*)?404(?![\p{L}\p{N}])(?!\s+(?:pages?|errors?\s+pages?|handling|redirects?)\b)|\berror\s*404\b|^\s*404\s*$/iu;

/** Quoted spans ("…", “…”, «…», 「…」): a line quoting a status names it, it does not say it. */
const QUOTED = /["“„«「『][^"“”„«»「」『』]{1,80}["”“»」』]/g;

/**
 * A title or heading that talks about a status rather than showing it: a question word or a how-to
 * ("How do I fix a 404 Not Found error?", "Cómo solucionar…"), a sentence going on past it ("500
 * Internal Server Error after upgrading"), or a work's name ("Access Denied (2019 film)").
 */
const ASKS =
  /^\s*(?:how|why|what|when|where|which|can|could|does|do|did|should|fix(?:ing)?|troubleshoot(?:ing)?|understanding|handling|solved?|c[óo]mo|por\s+qu[ée]|wie|warum|comment|pourquoi|come|perch[ée]|porque|как|почему|что)(?![\p{L}'’])|\bhow\s+to\b|怎么|如何|为什么|どうやって|なぜ/iu;
const GOES_ON = /\s(?:after|when|while|using|behind|during|because|since|despite|upon)\s/i;
const NAMED_WORK =
  /\((?:\d{4}\s+)?(?:film|movie|album|song|single|ep|band|novel|book|play|musical|(?:tv\s+|web\s+)?series|(?:video\s+)?game|episode|documentary)\)/i;

/** The line is about a not-found or error status (ASKS, GOES_ON, NAMED_WORK above). */
export const talksAbout = (s: string): boolean => ASKS.test(s) || GOES_ON.test(s) || NAMED_WORK.test(s);

/** The same for wall wording, without questions: "Are you a robot?" is the wall's own line. */
export const talksAboutWall = (s: string): boolean => GOES_ON.test(s) || NAMED_WORK.test(s);

/** `s` without its quoted spans (the cheap indexOf first: most titles quote nothing). */
export function unquoted(s: string): string {
  if (!/["“„«「『]/.test(s)) return s;
  return s.replace(QUOTED, ' ');
}

/** A server error page's own words, and the status it shows. */
const SERVER_ERRORS: ReadonlyArray<[RegExp, number]> = [
  [/\b502\b|bad\s+gateway/i, 502],
  [/\b504\b|gateway\s+time-?\s?out/i, 504],
  [
    /\b503\b|service\s+(?:temporarily\s+)?unavailable|temporarily\s+unavailable|under\s+maintenance|maintenance\s+mode/i,
    503,
  ],
  [
    /\b500\b|internal\s+server\s+error|server\s+error\s+in\s+'|runtime\s+error|application\s+error|error\s+establishing\s+a\s+database\s+connection|critical\s+error\s+on\s+(?:this|your)\s+website|something\s+went\s+wrong|whoops,\s+looks\s+like|an\s+error\s+occurred\s+while\s+processing|interner\s+serverfehler|erreur\s+interne\s+du\s+serveur|error\s+interno\s+del\s+servidor|errore\s+interno\s+del\s+server|внутренняя\s+ошибка\s+сервера|サーバーエラー|服务器错误|服務器錯誤/i,
    500,
  ],
];

const SERVER_ERROR_ANY = new RegExp(SERVER_ERRORS.map(([re]) => re.source).join('|'), 'i');

/**
 * The shown status of a server error page's title or heading (a statement, not a word in a
 * sentence: "Internal Server Error", "502 Bad Gateway", "Error 503"), else undefined.
 */
export function serverErrorStatus(s: string): number | undefined {
  if (!SERVER_ERROR_ANY.test(s)) return undefined;
  // the number the page shows wins over the words ("Error 503 Backend fetch failed")
  const shown = /\b(5\d\d)\b/.exec(s);
  if (shown) return Number(shown[1]);
  for (const [re, status] of SERVER_ERRORS) if (re.test(s)) return status;
  return undefined;
}

/** Words that must sit next to a 5xx number for it to be an error, not a price or a model. */
export const ERROR_CONTEXT =
  /error|fehler|erreur|errore|erro|fout|b[łl][ąa]d|ошибка|gateway|unavailable|server|timeout|time-out|エラー|错误|錯誤/i;

/** Domain parking and for-sale landers: their words. */
export const PARKED_WORDS = new RegExp(
  [
    String.raw`(?:this|the)\s+domain(?:\s+name)?\s+(?:\S+\s+)?(?:is|may\s+be|might\s+be|could\s+be)\s+(?:for\s+sale|available\s+for\s+purchase|parked)`,
    String.raw`domain\s+(?:is\s+)?for\s+sale|buy\s+this\s+domain|get\s+this\s+domain|make\s+an\s+offer\s+on\s+this\s+domain|inquire\s+about\s+this\s+domain|this\s+domain\s+has\s+(?:been\s+)?(?:registered|parked)`,
    String.raw`parked\s+free|domain\s+parking|this\s+(?:web\s+)?page\s+is\s+parked|is\s+parked\s+(?:free|courtesy)|courtesy\s+of\s+godaddy`,
    String.raw`diese\s+domain\s+(?:steht\s+zum\s+verkauf|kaufen|ist\s+zu\s+verkaufen)|ce\s+(?:nom\s+de\s+)?domaine\s+est\s+(?:à|a)\s+vendre|(?:este\s+)?dominio\s+(?:está\s+)?en\s+venta|dominio\s+in\s+vendita|domínio\s+(?:está\s+)?à\s+venda|dit\s+domein\s+is\s+te\s+koop|domena\s+(?:jest\s+)?na\s+sprzedaż|домен\s+продаётся|домен\s+продается`,
  ].join('|'),
  'i',
);

const PARKING_NEEDLES = [
  'sedo',
  'parking',
  'bodis',
  'dan.com',
  'afternic',
  'above.com',
  'parklogic',
  'window.park',
  'caf.js',
  'hugedomains',
  'undeveloped',
  'domain-for-sale',
  'domainmarket',
  'godaddy',
  '/park.js',
];

/** Parking services' markup (their lander scripts and links). */
export const hasParkingMarkup = (html: string): boolean => nearNeedle(html, PARKING_NEEDLES, PARKED_MARKUP);

const PARKED_MARKUP =
  /sedoparking\.com|\bsedo\.com\/(?:search|checkout)|parkingcrew\.net|bodis\.com|\bdan\.com\/buy-domain|afternic\.com\/(?:forsale|domain)|above\.com\/marketplace|parklogic|window\.park\s*=|\/adsense\/domains\/caf\.js|hugedomains\.com\/domain_profile|undeveloped\.com|domain-for-sale|\bparking-lander\b|img\.sedoparking|domainmarket\.com|godaddy\.com\/domainsearch\/find\?[^"']*checkAvail|data-parking|\/park\.js/i;

/** A sign-in page's words. */
export const SIGN_IN =
  /sign[\s-]?in|log[\s-]?in|log\s+on|sign\s+on|anmelden|einloggen|anmeldung|connexion|se\s+connecter|identifiez-vous|iniciar\s+sesi[óo]n|inicia\s+sesi[óo]n|acceder|accedi|entrar|fazer\s+login|inloggen|aanmelden|zaloguj|logowanie|войти|вход|ログイン|サインイン|登录|登入|로그인|authenticat|password|passwort|mot\s+de\s+passe|contraseña/i;

/**
 * A title or heading that is a sign-in line ("Sign in to your account", "Log in | Site"): it starts
 * with the words and is short. Two-step sign-in pages ask for the account first, the password later.
 */
export const SIGN_IN_LINE =
  /^\s*(?:sign[\s-]?in|log[\s-]?in|log\s+on|sign\s+on|anmelden|einloggen|connexion|se\s+connecter|iniciar\s+sesi[óo]n|inicia\s+sesi[óo]n|accedi|entrar|inloggen|aanmelden|zaloguj|войти|вход|ログイン|サインイン|登录|登入|로그인)(?![\p{L}])/iu;

/** An account field (email, user name) in markup: the first step of a two-step sign-in form. */
const ACCOUNT_FIELD =
  /<input\b[^>]*\b(?:autocomplete\s*=\s*["']?username\b|name\s*=\s*["']?(?:login|loginfmt|username|user_?name|identifier)["'\s>])/i;

/** Not a bare email input: a newsletter box has one too. */
export const hasAccountField = (html: string): boolean =>
  nearNeedle(html, ['username', 'loginfmt', 'identifier', 'name="login"', "name='login'"], ACCOUNT_FIELD);

/** A registration wall's own words under a cut-off article ("Sign in to continue reading"). */
export const READ_WALL =
  /(?:sign|log)[\s-]?in\s+(?:to|and)\s+(?:continue|keep)\s+reading|(?:register|create\s+a\s+(?:free\s+)?account)(?:\s+or\s+(?:sign|log)[\s-]?in)?\s+to\s+(?:continue\s+reading|read\s+(?:this|the\s+(?:full|rest\s+of\s+the))\s+(?:article|story))|(?:this\s+(?:article|story|content)\s+is\s+(?:only\s+)?(?:for|available\s+to)\s+registered\s+(?:users|readers|members))|melden\s+sie\s+sich\s+an,?\s+um\s+weiterzulesen|connectez-vous\s+pour\s+(?:lire|continuer)|inicia\s+sesi[óo]n\s+para\s+(?:seguir|continuar)\s+leyendo/i;

const PASSWORD_FIELD = /<input\b[^>]*\btype\s*=\s*["']?password\b/i;

/** A password field in raw markup (the regex only runs where the word is). */
export const hasPasswordField = (html: string): boolean =>
  nearNeedle(html, ['password', 'PASSWORD', 'Password'], PASSWORD_FIELD);

/** Generic wall wording (no vendor named), per reason. Read in title, <h1> and tiny pages. */
export const WALL_WORDS: ReadonlyArray<[BlockReason, RegExp]> = [
  [
    'challenge',
    /just\s+a\s+moment|checking\s+(?:your\s+browser|if\s+the\s+site\s+connection|the\s+browser)|verifying\s+(?:you\s+are|your\s+browser|that\s+you)|please\s+wait\s+while\s+we\s+(?:verify|check)|enable\s+javascript\s+and\s+cookies\s+to\s+continue|ddos\s+protection\s+by|one\s+more\s+step|browser\s+(?:integrity\s+)?check|security\s+checkpoint|please\s+turn\s+javascript\s+on\s+and\s+reload|please\s+enable\s+js\s+and\s+disable\s+any\s+ad\s+blocker/i,
  ],
  [
    'captcha',
    /verify\s+(?:that\s+)?you(?:\s+are|'re|’re)\s+(?:a\s+)?human|are\s+you\s+a\s+(?:robot|human|bot)|i(?:'|’)?m\s+not\s+a\s+robot|(?:you(?:'|’)re|you\s+are)\s+not\s+a\s+robot|(?:enter|type)\s+the\s+characters\s+you\s+see|human\s+verification|unusual\s+traffic|press\s+(?:&|and|&amp;)\s+hold|complete\s+the\s+(?:captcha|security\s+check)|prove\s+you(?:'|’)?re\s+(?:a\s+)?human|bot\s+(?:check|detection|protection)|^\s*captcha\s*$|captcha\s+(?:required|verification|check)|^\s*security\s+check\s*$|security\s+check\s+required|pardon\s+our\s+interruption/i,
  ],
  [
    'rate-limited',
    /too\s+many\s+requests|rate[\s-]?limit(?:ed|\s+exceeded)|you\s+are\s+being\s+rate\s+limited|request\s+limit\s+(?:reached|exceeded)|\b429\s+too\s+many|error\s+429|^\s*429\s*$/i,
  ],
  [
    'access-denied',
    /access\s+(?:is\s+)?denied|^\s*403\s+error\s*$|access\s+to\s+this\s+page\s+has\s+been\s+denied|^\s*(?:403\s*)?forbidden\s*(?:$|[.!|:–—-])|\b403\s+forbidden|error\s+403|you\s+(?:have\s+been|are|were)\s+blocked|request\s+(?:was\s+)?(?:blocked|rejected)|zugriff\s+verweigert|acc[èe]s\s+(?:refus[ée]|interdit)|acceso\s+denegado|accesso\s+negato|acesso\s+negado|toegang\s+geweigerd|dostęp\s+zabroniony|доступ\s+запрещ|アクセスが拒否|访问被拒绝|拒绝访问/i,
  ],
];
