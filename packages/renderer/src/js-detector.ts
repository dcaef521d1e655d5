/**
 * Does this HTML need a browser to show its content? Decided from measurable signals in the
 * fetched markup, so the (10x more expensive) browser is used only for client-rendered pages.
 */

export interface JsSignals {
  /** Visible text characters in <body> (scripts, styles, noscript, templates removed). */
  textLength: number;
  scriptCount: number;
  /** An empty mount point: <div id="root|app|__next|__nuxt|…"></div> or <app-root></app-root>. */
  emptyAppShell: boolean;
  /** <noscript> asking the user to enable JavaScript. */
  noscriptWarning: boolean;
}

const SHELL_IDS = 'root|app|__next|__nuxt|___gatsby|svelte|main-app|app-root|application|react-root|mount';
const EMPTY_SHELL_RE = new RegExp(
  `<div\\b[^>]*\\bid\\s*=\\s*["']?(?:${SHELL_IDS})["']?[^>]*>\\s*(?:<!--[\\s\\S]*?-->\\s*)*</div>`,
  'i',
);
const EMPTY_CUSTOM_ROOT_RE = /<(app-root|ng-app)\b[^>]*>\s*<\/\1>/i;
const NOSCRIPT_RE = /<noscript\b[^>]*>([\s\S]*?)<\/noscript>/gi;
const NOSCRIPT_JS_RE =
  /(enable|activate|turn on|requires?|need|needs|without)\s+(?:\w+\s+){0,3}javascript|javascript\s+(is\s+)?(required|disabled|must be enabled)/i;

function bodyOf(html: string): string {
  const open = /<body\b[^>]*>/i.exec(html);
  if (!open) return html;
  const start = open.index + open[0].length;
  const close = html.toLowerCase().lastIndexOf('</body>');
  return html.slice(start, close > start ? close : undefined);
}

export function visibleText(html: string): string {
  return bodyOf(html)
    .replace(/<(script|style|noscript|template|svg|iframe)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(nbsp|#160);/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function jsSignals(html: string): JsSignals {
  let noscriptWarning = false;
  for (const m of html.matchAll(NOSCRIPT_RE)) {
    if (NOSCRIPT_JS_RE.test(m[1] ?? '')) noscriptWarning = true;
  }
  return {
    textLength: visibleText(html).length,
    scriptCount: (html.match(/<script\b/gi) ?? []).length,
    emptyAppShell: EMPTY_SHELL_RE.test(html) || EMPTY_CUSTOM_ROOT_RE.test(html),
    noscriptWarning,
  };
}

/**
 * The auto rule: little visible text AND at least one sign of client-side rendering.
 * - < 250 chars of text with an empty app-shell mount point or a "enable JavaScript" noscript;
 * - < 100 chars of text with 3+ script tags;
 * - no text at all but some script.
 * Pages with real server-rendered text never qualify, whatever their scripts.
 */
export function needsJavaScript(html: string): boolean {
  const s = jsSignals(html);
  if (s.textLength < 250 && (s.emptyAppShell || s.noscriptWarning)) return true;
  if (s.textLength < 100 && s.scriptCount >= 3) return true;
  if (s.textLength < 20 && s.scriptCount >= 1) return true;
  return false;
}
