/** The `json` format: headings, typed content blocks and links of the chosen content. */
import type { Element, ParentNode } from 'domhandler';
import { isBlockName } from '../dom/content-stats';
import { collapse, findAll, isElement, isText, rawText, textOf } from '../dom/dom.util';
import type { UrlResolver } from '../dom/url.util';
import type { ContentMetadata, StructuredBlock, StructuredDocument } from '../types';
import { type BlockRenderer, codeLanguage } from './markdown.serializer';
import { tableRows } from './table.serializer';

export function buildStructured(
  root: ParentNode,
  metadata: ContentMetadata,
  resolver: UrlResolver,
  text: BlockRenderer,
): StructuredDocument {
  const blocks: StructuredBlock[] = [];
  const headings: StructuredDocument['headings'] = [];
  const walk = (node: ParentNode): void => {
    let inline: Element[] = [];
    let loose = '';
    const flush = (): void => {
      const t = collapse(loose);
      if (t) blocks.push({ type: 'paragraph', text: t });
      for (const e of inline) images(e);
      inline = [];
      loose = '';
    };
    for (const c of node.children) {
      if (isText(c)) loose += ` ${c.data}`;
      if (!isElement(c)) continue;
      if (!isBlockName(c.name)) {
        if (c.name === 'img') image(c);
        else {
          inline.push(c);
          loose += ` ${text.blocksOf(c).join(' ')}`;
        }
        continue;
      }
      flush();
      block(c);
    }
    flush();
  };
  const image = (el: Element): void => {
    const src = resolver.resolveImage(el.attribs.src ?? el.attribs['data-src'], el.attribs.srcset);
    if (src) blocks.push({ type: 'image', src, alt: collapse(el.attribs.alt ?? '') });
  };
  const images = (el: Element): void => {
    for (const img of findAll(el, (e) => e.name === 'img')) image(img);
  };
  const block = (el: Element): void => {
    const name = el.name;
    if (/^h[1-6]$/.test(name)) {
      const t = textOf(el);
      if (!t) return;
      const level = Number(name[1]);
      headings.push({ level, text: t });
      blocks.push({ type: 'heading', level, text: t });
      return;
    }
    if (name === 'pre') {
      blocks.push({
        type: 'code',
        text: rawText(el).replace(/^\n/, '').trimEnd(),
        language: codeLanguage(el),
      });
      return;
    }
    if (name === 'ul' || name === 'ol') {
      const items = el.children
        .filter((c): c is Element => isElement(c) && c.name === 'li')
        .map((li) => text.blocksOf(li).join('\n'))
        .filter((t) => t !== '');
      if (items.length) blocks.push({ type: 'list', ordered: name === 'ol', items });
      return;
    }
    if (name === 'table') {
      const rows = tableRows(el)
        .map((r) => r.map((c) => collapse(text.blocksOf(c).join(' '))))
        .filter((r) => r.some((c) => c !== ''));
      if (rows.length) blocks.push({ type: 'table', rows });
      return;
    }
    if (name === 'blockquote') {
      const t = text.blocksOf(el).join('\n\n');
      if (t) blocks.push({ type: 'quote', text: t });
      return;
    }
    if (name === 'hr' || name === 'br') return;
    walk(el);
  };
  walk(root);
  const links: StructuredDocument['links'] = [];
  const seen = new Set<string>();
  for (const a of findAll(root, (e) => e.name === 'a' && e.attribs.href !== undefined)) {
    const url = resolver.resolve(a.attribs.href);
    if (!url || seen.has(url)) continue;
    seen.add(url);
    links.push({ url, text: textOf(a) });
  }
  return { metadata, headings, blocks, links };
}
