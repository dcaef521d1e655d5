import { processDocument, processHtml } from '../document.processor';
import { codeFence } from '../render/markdown.serializer';
import {
  MAX_HTML_CHARS,
  MAX_PAGE_LINKS,
  MAX_TEXT_NODE_CHARS,
  stripHeavyBlocks,
  warningFor,
} from './input-caps';

const url = 'http://site.test/page';

describe('input caps and the warning of a cut page', () => {
  it('an ordinary page is not cut and has no warning', () => {
    const out = processHtml(
      `<html><body><article><h1>T</h1>${'<p>Some ordinary text in a paragraph.</p>'.repeat(50)}</article></body></html>`,
      { url },
    );
    expect(out.warning).toBeUndefined();
  });

  it('100k nested divs: no stack overflow, text kept, nesting flattened with a warning', () => {
    const html = `<html><body>${'<div>'.repeat(100_000)}deep text${'</div>'.repeat(100_000)}</body></html>`;
    const out = processHtml(html, {
      url,
      formats: ['markdown', 'html', 'text', 'json'],
      onlyMainContent: false,
    });
    expect(out.markdown).toContain('deep text');
    expect(out.warning).toMatch(/nesting too deep was flattened/);
  });

  it('200 nested divs (past the depth cap, under the re-parse guard) are flattened with a warning', () => {
    const html = `<html><body>${'<div>'.repeat(200)}<p>inner</p>${'</div>'.repeat(200)}</body></html>`;
    const out = processHtml(html, { url, onlyMainContent: false });
    expect(out.text).toContain('inner');
    expect(out.warning).toMatch(/nesting/);
  });

  it('a 5 MB text node is cut at the text-node cap', () => {
    const out = processHtml(`<html><body><p>${'word '.repeat(1_000_000)}</p></body></html>`, { url });
    expect(out.text.length).toBeLessThanOrEqual(MAX_TEXT_NODE_CHARS);
    expect(out.text.length).toBeGreaterThan(MAX_TEXT_NODE_CHARS * 0.9);
    expect(out.warning).toMatch(/text nodes were cut/);
  });

  it('elements past the element cap are dropped', () => {
    const html = `<html><body>${'<span>x</span>'.repeat(150_000)}</body></html>`;
    const out = processHtml(html, { url, onlyMainContent: false, formats: ['text'] });
    expect(out.warning).toMatch(/elements beyond 100000/);
    expect(out.text.split('x').length - 1).toBeLessThan(110_000);
  });

  it('HTML past 12 M characters (after stripping scripts) loses its tail', () => {
    const para = '<p>para with some words in it</p>';
    const html = `<html><body>${para.repeat(Math.ceil(MAX_HTML_CHARS / para.length) + 1000)}</body></html>`;
    const out = processHtml(html, { url, formats: ['text'], onlyMainContent: false });
    expect(out.warning).toMatch(/the page beyond 12000000 characters/);
  });

  it('text and JSON bodies past the cap are cut with the warning', () => {
    const out = processDocument(
      { body: 'a'.repeat(MAX_HTML_CHARS + 10), contentType: 'text/plain', url },
      { formats: ['text'] },
    );
    expect(out.text.length).toBe(MAX_HTML_CHARS);
    expect(out.warning).toMatch(/the page beyond 12000000/);
  });

  it('links come from the same parse: base href, nofollow, <link rel=next>, capped', () => {
    const html = `<html><head><base href="/docs/"><link rel="next" href="p2"></head><body>
      <a href="a">A <b>text</b></a><a href="#top">skip</a><a rel="nofollow" href="b">B</a>
      ${Array.from({ length: MAX_PAGE_LINKS + 5 }, (_, i) => `<a href="x${i}">x</a>`).join('')}</body></html>`;
    const out = processHtml(html, { url, links: true, formats: ['markdown'] });
    const links = out.links!;
    expect(links.baseHref).toBe('/docs/');
    expect(links.links[0]).toEqual({ href: 'p2', text: '', nofollow: false, tag: 'link' });
    expect(links.links[1]).toEqual({ href: 'a', text: 'A text', nofollow: false, tag: 'a' });
    expect(links.links[2]).toEqual({ href: 'b', text: 'B', nofollow: true, tag: 'a' });
    expect(links.links.length).toBe(MAX_PAGE_LINKS);
    expect(out.warning).toMatch(/links beyond 20000 were not followed/);
  });

  it('the warning lists every cap that applied', () => {
    expect(warningFor({})).toBeUndefined();
    expect(warningFor({ depth: true, links: true })).toBe(
      'Page content was cut: nesting too deep was flattened; links beyond 20000 were not followed.',
    );
  });
});

describe('stripHeavyBlocks', () => {
  it('removes scripts, styles, svg and comments, in any case, keeping the rest', () => {
    expect(
      stripHeavyBlocks(
        'a<SCRIPT type=x>1<2</script >b<style>p{}</style>c<!-- x -->d<svg><g/></svg>e<scripts>f',
      ),
    ).toBe('abcde<scripts>f');
  });

  it('keeps unclosed blocks and answers on hostile input (linear: quadratic would take hours)', () => {
    expect(stripHeavyBlocks('a<script>b')).toBe('a<script>b');
    expect(stripHeavyBlocks('a<!--b')).toBe('a<!--b');
    const hostile = '<script>'.repeat(1_000_000);
    expect(stripHeavyBlocks(hostile)).toBe(hostile);
    expect(stripHeavyBlocks('<!--'.repeat(1_000_000)).length).toBe(4_000_000);
  });
});

describe('code fences', () => {
  it('are longer than any backtick run inside, found in one pass', () => {
    expect(codeFence('plain')).toBe('```');
    expect(codeFence('a ``` b ```` c')).toBe('`````');
    const out = processHtml(`<html><body><pre>${'`'.repeat(500_000)}</pre></body></html>`, {
      url,
      onlyMainContent: false,
    });
    expect(out.markdown.startsWith(`${'`'.repeat(500_001)}\n`)).toBe(true);
  });
});
