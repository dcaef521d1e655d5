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
  const header = pageHeader(page);
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

export interface ChunkedInput {
  /** Each chunk's text: the header (with "Part i of n") and its blocks. */
  chunks: string[];
  /** Estimated tokens of every chunk sent, together. */
  tokens: number;
  /** Chunks the whole page needs; more than `chunks.length` when EXTRACT_MAX_CHUNKS cut it. */
  needed: number;
  /** The chunk size used (tokens): the budget, or more when the page needed it to fit the cap. */
  chunkTokens: number;
}

/**
 * The page in chunks of the budget; when that takes more than `maxChunks`, in larger chunks — up
 * to `maxChunkTokens` (what the model's context holds) — so the whole page fits the cap: the same
 * page text is sent either way, in fewer, larger calls, instead of the end never being read.
 */
export function splitIntoChunks(
  page: PageForModel,
  budgetTokens: number,
  overlapTokens: number,
  maxChunks: number,
  maxChunkTokens = budgetTokens,
): ChunkedInput {
  let split = splitAt(page, budgetTokens, overlapTokens, maxChunks);
  if (split.needed <= maxChunks || maxChunkTokens <= budgetTokens) return split;
  // First guess: the page shared out over the cap, with room for packing and the overlap.
  const perChunk = Math.ceil((estimateTokens(page.markdown) / Math.max(1, maxChunks)) * 1.05) + overlapTokens;
  let size = Math.min(maxChunkTokens, Math.max(budgetTokens + 1, perChunk));
  for (;;) {
    split = splitAt(page, size, overlapTokens, maxChunks);
    if (split.needed <= maxChunks || size >= maxChunkTokens) return split;
    size = Math.min(maxChunkTokens, Math.ceil(size * 1.1));
  }
}

/**
 * A page longer than the budget, as chunks that each fit it: blocks are packed in page order, a
 * chunk closes early before a heading once it is 3/4 full (sections stay together), a block
 * larger than a chunk is cut on lines, and each chunk starts with the last blocks of the previous
 * one up to `overlapTokens` (a value on a boundary is seen whole at least once). At most
 * `maxChunks` chunks are returned, from the start of the page.
 */
function splitAt(
  page: PageForModel,
  budgetTokens: number,
  overlapTokens: number,
  maxChunks: number,
): ChunkedInput {
  const header = pageHeader(page);
  // Room for the header and its "Part i of n" line.
  const budgetChars = Math.max(400, budgetTokens * CHARS_PER_TOKEN - header.length - 40);
  const overlapChars = Math.min(Math.floor(budgetChars / 3), overlapTokens * CHARS_PER_TOKEN);
  const blocks = markdownBlocks(page.markdown).flatMap((b) => splitLargeBlock(b, budgetChars - overlapChars));
  const bodies: string[][] = [];
  let current: string[] = [];
  let used = 0;
  let fresh = 0; // blocks in `current` that are not overlap
  const close = () => {
    bodies.push(current);
    const carry: string[] = [];
    let carried = 0;
    for (let i = current.length - 1; i >= 0 && overlapChars > 0; i--) {
      const b = current[i] as string;
      if (carried + b.length + 2 > overlapChars) {
        if (carry.length === 0) carry.unshift(tail(b, overlapChars));
        break;
      }
      carry.unshift(b);
      carried += b.length + 2;
    }
    current = carry;
    used = carry.reduce((n, b) => n + b.length + 2, 0);
    fresh = 0;
  };
  for (const block of blocks) {
    const cost = block.length + 2;
    const heading = /^#{1,6}\s/.test(block);
    if (fresh > 0 && (used + cost > budgetChars || (heading && used > budgetChars * 0.75))) close();
    current.push(block);
    used += cost;
    fresh++;
  }
  if (fresh > 0) bodies.push(current);
  const needed = bodies.length;
  const chunks = bodies
    .slice(0, Math.max(1, maxChunks))
    .map((body, i) => `${header}\nPart ${i + 1} of ${needed} of the page.\n\n${body.join('\n\n')}`);
  return {
    chunks,
    tokens: chunks.reduce((n, c) => n + estimateTokens(c), 0),
    needed,
    chunkTokens: budgetTokens,
  };
}

function pageHeader(page: PageForModel): string {
  return [
    `URL: ${page.url}`,
    page.title ? `Title: ${oneLine(page.title)}` : null,
    page.description ? `Description: ${oneLine(page.description)}` : null,
  ]
    .filter((l): l is string => l !== null)
    .join('\n');
}

/** A block larger than `maxChars` as pieces cut on lines (or hard, for a single huge line). */
function splitLargeBlock(block: string, maxChars: number): string[] {
  if (block.length <= maxChars) return [block];
  const out: string[] = [];
  let rest = block;
  while (rest.length > maxChars) {
    const piece = cutBlock(rest, maxChars);
    out.push(piece);
    rest = rest.slice(piece.length).replace(/^\n/, '');
  }
  if (rest) out.push(rest);
  return out;
}

function tail(block: string, maxChars: number): string {
  const t = block.slice(-maxChars);
  const nl = t.indexOf('\n');
  return nl >= 0 && nl < maxChars / 2 ? t.slice(nl + 1) : t;
}
