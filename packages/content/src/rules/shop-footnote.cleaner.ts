/**
 * Collection and listing pages: shops close with a list of legal footnotes (financing terms,
 * offer conditions, trade-in small print) marked by symbols next to prices. It is the page's
 * longest prose, so article mode can keep it alone; it is small print, not the items.
 */
import type { Element, ParentNode } from 'domhandler';
import { findAll, removeNode } from '../dom/dom.util';

/** A class or id naming a list of footnotes ("footnotes", "rc-footnotelist", "legal-footnotes"). */
const FOOTNOTES = /footnotes|footnote-?list/i;

const isFootnoteList = (e: Element): boolean =>
  FOOTNOTES.test(`${e.attribs.class ?? ''} ${e.attribs.id ?? ''}`);

export function removeShopFootnotes(root: ParentNode): void {
  for (const el of findAll(root, isFootnoteList, isFootnoteList)) removeNode(el);
}
