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
  return { verdict: 'content', signals: [] };
}
