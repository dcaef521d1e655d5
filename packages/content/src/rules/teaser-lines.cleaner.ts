/**
 * Article mode: a paragraph whose lines (split at <br>) are each a link to another story, with
 * at most a short label beside it ("[VIDEO]", "|"), is a block of teasers set inside the body,
 * as is the same block opened by a lead-in line ("Don't miss"). Prose with links in it has
 * lines of its own words, so it never qualifies.
 */
import type { AnyNode, Element } from 'domhandler';
import { removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { collapse, findAll, isElement, isText } from '../dom/dom.util';

/** A linked line: links carry at least this share of its characters. */
const LINKED_SHARE = 0.6;
/** Of the whole paragraph, lead-in included: far below what two linked lines give. */
const MIN_LINK_SHARE = 0.2;
/** More teaser blocks than this make a link roundup, where the links are the content. */
const MAX_BLOCKS = 3;
/** Teaser blocks are a small part of a story. */
const MAX_SHARE = 0.2;

/** A headline has a few words; a line of one or two linked words is a menu or a tag. */
const MIN_WORDS = 4;
const WORD = /[\p{L}\p{N}]+/gu;
/** Beside the link only a label in brackets ("[VIDEO]") or punctuation: no words of its own. */
const LABEL_ONLY = (outside: string): boolean =>
  !/[\p{L}\p{N}]/u.test(outside.replace(/\[[^\]]*\]?|\([^)]*\)/g, ''));

interface Line {
  text: string;
  link: number;
  outside: string;
}

function linesOf(p: Element): Line[] {
  const lines: Line[] = [{ text: '', link: 0, outside: '' }];
  const walk = (n: AnyNode, inLink: boolean): void => {
    if (isText(n)) {
      const line = lines[lines.length - 1]!;
      line.text += n.data;
      if (inLink) line.link += collapse(n.data).length;
      else line.outside += n.data;
    } else if (isElement(n)) {
      if (n.name === 'br') lines.push({ text: '', link: 0, outside: '' });
      else for (const c of n.children) walk(c, inLink || n.name === 'a');
    }
  };
  for (const c of p.children) walk(c, false);
  return lines
    .map((l) => ({ text: collapse(l.text), link: l.link, outside: l.outside }))
    .filter((l) => /[\p{L}\p{N}]/u.test(l.text));
}

function isTeaserBlock(p: Element, leadIn: RegExp): boolean {
  const lines = linesOf(p);
  const body = lines.length > 0 && leadIn.test(lines[0]!.text) ? lines.slice(1) : lines;
  if (body.length < 2) return false;
  return body.every(
    (l) =>
      l.link >= LINKED_SHARE * l.text.length &&
      LABEL_ONLY(l.outside) &&
      (l.text.match(WORD)?.length ?? 0) >= MIN_WORDS,
  );
}

export function trimTeaserLines(root: Element, stats: StatsMap, leadIn: RegExp): void {
  const total = stats.get(root)?.text ?? 0;
  // mostly linked text first: a cheap test that spares walking every paragraph's lines
  const blocks = findAll(root, (e) => {
    if (e.name !== 'p') return false;
    const s = stats.get(e);
    return !!s && s.link > 0 && s.link >= MIN_LINK_SHARE * s.text && isTeaserBlock(e, leadIn);
  });
  if (blocks.length === 0 || blocks.length > MAX_BLOCKS) return;
  const sum = blocks.reduce((n, e) => n + (stats.get(e)?.text ?? 0), 0);
  if (sum > MAX_SHARE * total) return;
  removeAllWithStats(blocks, stats);
}
