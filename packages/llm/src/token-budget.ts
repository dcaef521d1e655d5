/**
 * What the model sees: a header (URL, title, description) and the page's main-content markdown,
 * cut to a token budget on block boundaries (paragraphs, headings, list runs, whole fenced code
 * blocks), so a page costs as few tokens as possible and no block is sent half-cut unless a single
 * block alone is larger than the budget.
 *
 * Tokens are estimated as ceil(characters / 4): cheap, deterministic, no tokenizer dependency, and
 * within ~10-20 % of Claude's and Llama's tokenizers on English prose (more tokens per character
 * on code and non-Latin scripts, where the estimate undercounts: keep the budget conservative).
 */

export const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export interface PageForModel {
  url: string;
  title?: string | null;
  description?: string | null;
  markdown: string;
}

export interface ModelInput {
  text: string;
  tokens: number;
  /** Whether blocks were dropped or cut to fit the budget. */
  truncated: boolean;
}

/** Split markdown into blocks on blank lines, keeping fenced code blocks whole. */
export function markdownBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  const flush = () => {
    if (current.length > 0) blocks.push(current.join('\n'));
    current = [];
  };
  for (const line of markdown.split('\n')) {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      current.push(line);
      if (m?.[1] && m[1][0] === fence[0] && m[1].length >= fence.length) fence = null;
      continue;
    }
    if (m?.[1]) {
      fence = m[1];
      current.push(line);
      continue;
    }
    if (line.trim() === '') flush();
    else current.push(line);
  }
  flush();
  return blocks;
}

export function buildModelInput(page: PageForModel, budgetTokens: number): ModelInput {
  const header = [
    `URL: ${page.url}`,
    page.title ? `Title: ${oneLine(page.title)}` : null,
    page.description ? `Description: ${oneLine(page.description)}` : null,
  ]
    .filter((l): l is string => l !== null)
    .join('\n');
  const budgetChars = Math.max(0, budgetTokens * CHARS_PER_TOKEN - header.length - 2);
  const kept: string[] = [];
  let used = 0;
  let truncated = false;
  for (const block of markdownBlocks(page.markdown)) {
    const cost = block.length + (kept.length > 0 ? 2 : 0);
    if (used + cost <= budgetChars) {
      kept.push(block);
      used += cost;
      continue;
    }
    truncated = true;
    // Only a first block larger than the whole budget is cut (on line boundaries where possible),
    // so a page never reaches the model as a header alone.
    if (kept.length === 0 && budgetChars > 0) kept.push(cutBlock(block, budgetChars));
    break;
  }
  const body = kept.join('\n\n');
  const text = body ? `${header}\n\n${body}` : header;
  return { text, tokens: estimateTokens(text), truncated };
}

function cutBlock(block: string, maxChars: number): string {
  const slice = block.slice(0, maxChars);
  const lastNewline = slice.lastIndexOf('\n');
  return lastNewline > maxChars / 2 ? slice.slice(0, lastNewline) : slice;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim().slice(0, 500);
}
