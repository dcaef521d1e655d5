import { detectBlock } from './block-signals';
import type { RawAnswer, VerdictResult } from './verdict.types';

/** What the pipeline knows about a converted page when it judges it. */
export interface VerdictInput extends RawAnswer {
  title: string | null;
  /** Words of the main content the pipeline extracted (0 when no content format was asked for and it was not computed). */
  mainWords?: number;
  /** Words of the whole page's visible text. */
  pageWords: number;
}

/** The verdict on one page (verdict.types.ts). */
export function judgePage(input: VerdictInput): VerdictResult {
  const block = detectBlock(input);
  if (block) return { verdict: 'blocked', block, signals: ['block'] };
  // Stub shapes until the real classifier lands: generic placeholder pages only.
  const text = input.body
    .replace(/<(head|script|style)\b[\s\S]*?<\/\1>|<[^>]*>/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const title = input.title ?? '';
  const short = text.length < 400;
  if (short && /\b(404 not found|page not found)\b/i.test(title))
    return { verdict: 'soft-404', shownStatus: 404, signals: ['title'] };
  const shown = /^(5\d\d) [A-Z]/.exec(title);
  if (short && shown) return { verdict: 'error-page', shownStatus: Number(shown[1]), signals: ['title'] };
  if (/\bdomain (name )?is for sale\b/i.test(text)) return { verdict: 'parked', signals: ['parked'] };
  if (short && /<input\b[^>]*type=["']?password/i.test(input.body))
    return { verdict: 'login-wall', signals: ['password'] };
  if (text.length === 0 && /<div id=["'](root|app)["']>\s*<\/div>/i.test(input.body))
    return { verdict: 'empty', signals: ['shell'] };
  return { verdict: 'content', signals: [] };
}
