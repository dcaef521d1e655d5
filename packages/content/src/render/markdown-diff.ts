/**
 * A line diff of two markdown renderings of a page, in the shapes callers show users: the lines
 * added and removed, a unified diff (`text`, lines starting `+` / `-`), and a structured form of
 * it (`json`, the `{ files: [{ chunks: [{ changes }] }] }` shape Firecrawl's changeTracking
 * returns, as parse-diff writes it). jsdiff does the diffing; this module bounds it for hostile
 * pages: the edit search stops at `timeoutMs` and the output at `maxLines` / `maxTextChars`, and
 * optionally each line at `maxLineChars` and the listed lines together at `maxListChars` (a page
 * of one huge paragraph would otherwise list it whole).
 */
import { FILE_HEADERS_ONLY, formatPatch, type StructuredPatch, structuredPatch } from 'diff';

export interface DiffChange {
  type: 'add' | 'del' | 'normal';
  content: string;
  /** Line in the new text (add) or the old one (del). */
  ln?: number;
  /** Old and new line of an unchanged line. */
  ln1?: number;
  ln2?: number;
}

export interface DiffChunk {
  content: string;
  changes: DiffChange[];
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
}

export interface DiffJson {
  files: Array<{ from: string; to: string; additions: number; deletions: number; chunks: DiffChunk[] }>;
}

export interface MarkdownDiff {
  added: string[];
  removed: string[];
  /** Unified diff; '' when nothing changed. */
  text: string;
  json: DiffJson;
  /** Lines, hunks or text were left out to stay within the limits, or the edit search gave up. */
  truncated: boolean;
}

export interface MarkdownDiffLimits {
  /** Most added (and, apart, removed) lines listed. */
  maxLines?: number;
  /** Longest unified diff text, in characters. */
  maxTextChars?: number;
  /** Longest line in `added`, `removed`, `text` and `json`: a longer one is cut to it, its last character `…`. */
  maxLineChars?: number;
  /** Most characters of `added` and `removed` together: lines past it are left out. */
  maxListChars?: number;
  /** Lines of context around each hunk. */
  context?: number;
  /** The edit search's budget; past it the diff falls back to a set difference of the lines. */
  timeoutMs?: number;
}

export const MARKDOWN_DIFF_DEFAULTS: Required<MarkdownDiffLimits> = {
  maxLines: 500,
  maxTextChars: 64 * 1024,
  maxLineChars: Number.POSITIVE_INFINITY,
  maxListChars: Number.POSITIVE_INFINITY,
  context: 3,
  timeoutMs: 1_000,
};

const FROM = 'previous';
const TO = 'current';

/** Diff `before` against `after` line by line (both markdown; blank-line runs kept as they are). */
export function diffMarkdown(before: string, after: string, limits: MarkdownDiffLimits = {}): MarkdownDiff {
  const o = { ...MARKDOWN_DIFF_DEFAULTS, ...limits };
  const a = withFinalNewline(before);
  const b = withFinalNewline(after);
  if (a === b) return { added: [], removed: [], text: '', json: { files: [] }, truncated: false };
  const patch = structuredPatch(FROM, TO, a, b, undefined, undefined, {
    context: o.context,
    timeout: o.timeoutMs,
  }) as StructuredPatch | undefined;
  return patch ? fromPatch(patch, o) : setDifference(a, b, o);
}

/** The line cut to `max` characters, the last one `…`. */
function capLine(line: string, max: number): string {
  return line.length > max ? `${line.slice(0, Math.max(0, max - 1))}…` : line;
}

/** Added and removed lines within `maxLines` each and `maxListChars` together, each line capped. */
class LineLists {
  readonly added: string[] = [];
  readonly removed: string[] = [];
  truncated = false;
  private chars = 0;
  private full = false;
  constructor(private readonly o: Required<MarkdownDiffLimits>) {}

  push(list: string[], line: string): void {
    const capped = capLine(line, this.o.maxLineChars);
    if (capped !== line) this.truncated = true;
    if (list.length >= this.o.maxLines || this.full || this.chars + capped.length > this.o.maxListChars) {
      // Past the characters' bound nothing more is listed: no later line jumps the one left out.
      this.full ||= list.length < this.o.maxLines;
      this.truncated = true;
      return;
    }
    this.chars += capped.length;
    list.push(capped);
  }
}

function fromPatch(patch: StructuredPatch, o: Required<MarkdownDiffLimits>): MarkdownDiff {
  const lists = new LineLists(o);
  const { added, removed } = lists;
  let truncated = false;
  let additions = 0;
  let deletions = 0;
  const chunks: DiffChunk[] = patch.hunks.map((h) => {
    let oldLn = h.oldStart;
    let newLn = h.newStart;
    const changes: DiffChange[] = [];
    for (const raw of h.lines) {
      const mark = raw[0];
      const content = raw.slice(1);
      const line = capLine(raw, o.maxLineChars);
      if (mark === '+') {
        additions++;
        lists.push(added, content);
        changes.push({ type: 'add', ln: newLn++, content: line });
      } else if (mark === '-') {
        deletions++;
        lists.push(removed, content);
        changes.push({ type: 'del', ln: oldLn++, content: line });
      } else if (mark === ' ') {
        changes.push({ type: 'normal', ln1: oldLn++, ln2: newLn++, content: line });
      }
    }
    return {
      content: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`,
      changes,
      oldStart: h.oldStart,
      oldLines: h.oldLines,
      newStart: h.newStart,
      newLines: h.newLines,
    };
  });
  // The structured form keeps as many whole hunks as the line limit allows.
  const kept: DiffChunk[] = [];
  let lines = 0;
  for (const c of chunks) {
    lines += c.changes.length;
    if (lines > o.maxLines * 2 + o.context * 2) {
      truncated = true;
      break;
    }
    kept.push(c);
  }
  const full = formatPatch(patch, FILE_HEADERS_ONLY);
  let text = capLines(full, o.maxLineChars);
  // A long context line is cut in the text alone.
  if (text.length !== full.length) truncated = true;
  if (text.length > o.maxTextChars) {
    text = cutAtLine(text, o.maxTextChars);
    truncated = true;
  }
  return {
    added,
    removed,
    text,
    json: { files: [{ from: FROM, to: TO, additions, deletions, chunks: kept }] },
    truncated: truncated || lists.truncated,
  };
}

/**
 * When the edit search runs out of time (two large, very different texts), a multiset
 * difference of the lines still says what was added and removed, in linear time; the unified
 * diff is then one hunk of those lines.
 */
function setDifference(a: string, b: string, o: Required<MarkdownDiffLimits>): MarkdownDiff {
  const oldLines = a.split('\n').slice(0, -1);
  const newLines = b.split('\n').slice(0, -1);
  const count = new Map<string, number>();
  for (const l of oldLines) count.set(l, (count.get(l) ?? 0) + 1);
  const addedAll: string[] = [];
  for (const l of newLines) {
    const n = count.get(l) ?? 0;
    if (n > 0) count.set(l, n - 1);
    else addedAll.push(l);
  }
  const removedAll: string[] = [];
  for (const l of oldLines) {
    const n = count.get(l) ?? 0;
    if (n > 0) {
      count.set(l, n - 1);
      removedAll.push(l);
    }
  }
  const lists = new LineLists(o);
  const { added, removed } = lists;
  for (const l of removedAll) lists.push(removed, l);
  for (const l of addedAll) lists.push(added, l);
  const header = `--- ${FROM}\n+++ ${TO}\n@@ -1,${oldLines.length} +1,${newLines.length} @@\n`;
  const lines = [...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`)];
  let text = `${header}${lines.join('\n')}\n`;
  if (text.length > o.maxTextChars) text = cutAtLine(text, o.maxTextChars);
  const changes: DiffChange[] = [
    ...removed.map((l, i) => ({ type: 'del' as const, ln: i + 1, content: `-${l}` })),
    ...added.map((l, i) => ({ type: 'add' as const, ln: i + 1, content: `+${l}` })),
  ];
  return {
    added,
    removed,
    text,
    json: {
      files: [
        {
          from: FROM,
          to: TO,
          additions: addedAll.length,
          deletions: removedAll.length,
          chunks: [
            {
              content: `@@ -1,${oldLines.length} +1,${newLines.length} @@`,
              changes,
              oldStart: 1,
              oldLines: oldLines.length,
              newStart: 1,
              newLines: newLines.length,
            },
          ],
        },
      ],
    },
    truncated: true,
  };
}

function withFinalNewline(s: string): string {
  const t = s.replace(/\r\n?/g, '\n');
  return t === '' || t.endsWith('\n') ? t : `${t}\n`;
}

function capLines(text: string, max: number): string {
  if (!Number.isFinite(max)) return text;
  return text
    .split('\n')
    .map((l) => capLine(l, max))
    .join('\n');
}

function cutAtLine(text: string, max: number): string {
  const cut = text.lastIndexOf('\n', max - 1);
  return text.slice(0, cut > 0 ? cut + 1 : max);
}
