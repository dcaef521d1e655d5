import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Handler, Parser, Tokenizer } from 'htmlparser2';
import { prng } from '../test-support/prng';
import { FastTokenizer } from './fast-tokenizer';

/** Every callback of the parser, with the source positions it reports: the stock tokenizer's must match. */
function events(html: string, chunks: number[], opts: { decodeEntities: boolean }, Tok: typeof Tokenizer) {
  const out: unknown[][] = [];
  let parser: Parser;
  const at = () => [parser.startIndex, parser.endIndex];
  const handler: Partial<Handler> = {
    onopentagname: (name) => out.push(['open', name, ...at()]),
    onattribute: (name, value, quote) => out.push(['attr', name, value, quote, ...at()]),
    onopentag: (name, attribs, implied) => out.push(['opened', name, attribs, implied, ...at()]),
    onclosetag: (name, implied) => out.push(['close', name, implied, ...at()]),
    ontext: (text) => out.push(['text', text, ...at()]),
    oncomment: (text) => out.push(['comment', text, ...at()]),
    oncdatastart: () => out.push(['cdata', ...at()]),
    oncdataend: () => out.push(['/cdata', ...at()]),
    onprocessinginstruction: (name, data) => out.push(['pi', name, data, ...at()]),
    onend: () => out.push(['end']),
  };
  parser = new Parser(handler, {
    ...opts,
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
    Tokenizer: Tok,
  });
  let i = 0;
  for (let k = 0; i < html.length; k++) {
    const size = chunks[k % chunks.length] ?? html.length;
    parser.write(html.slice(i, i + size));
    i += size;
  }
  parser.end();
  return out;
}

/** Markup-heavy noise: tags, quotes, entities, comments, raw-text elements and plain runs. */
const PIECES = [
  '<',
  '>',
  '</',
  '/>',
  '&',
  '&amp;',
  '&lt;',
  '&#x41;',
  '&#65;',
  '&notanentity;',
  '&nbsp',
  '"',
  "'",
  '=',
  ' ',
  '\n',
  '<!--',
  '-->',
  '<![CDATA[',
  ']]>',
  '<!DOCTYPE html>',
  '<?xml ?>',
  '<script>',
  '</script>',
  '<style>',
  '</style>',
  '<title>',
  '</title>',
  '<textarea>',
  '</textarea>',
  '<a href="',
  "<img alt='",
  '<div class=x data-v="',
  '<p>',
  '</p>',
  'plain text that runs on for a while',
  'é',
  '日本',
  '😀',
];

function noise(rnd: () => number, pieces: number): string {
  let s = '';
  for (let i = 0; i < pieces; i++) s += PIECES[Math.floor(rnd() * PIECES.length)];
  return s;
}

const CASES = [
  '',
  'just text',
  'a & b &amp; c &lt;d&gt; &#x1F600; &bogus; &',
  '<p class="a &amp; b" title=\'x &quot; y\' data-x=unquoted&amp;more>t</p>',
  '<a href="/x?a=1&b=2&amp;c=3">link &copy; 2024</a>',
  '<!-- a comment -- with dashes --><p>after</p>',
  '<script>if (a < b && c > d) { x = "</scr" + "ipt>"; }</script><p>after</p>',
  '<style>a > b { content: "<&>" }</style>',
  '<title>A &amp; B</title><textarea>x &lt; y</textarea>',
  '<div attr="never closed',
  'text then <',
  'text then &am',
  '<![CDATA[ x < y ]]> after',
  '<p>tail without close',
];

describe('FastTokenizer', () => {
  it('is a subclass of the stock tokenizer (the members it replaces exist in this htmlparser2)', () => {
    expect(FastTokenizer).not.toBe(Tokenizer);
    expect(Object.getPrototypeOf(FastTokenizer)).toBe(Tokenizer);
  });

  it.each([true, false])(
    'reports what the stock tokenizer reports on tricky markup (decodeEntities %s)',
    (decodeEntities) => {
      for (const html of CASES) {
        for (const chunks of [[html.length || 1], [1], [2, 3], [7]]) {
          expect(events(html, chunks, { decodeEntities }, FastTokenizer)).toEqual(
            events(html, chunks, { decodeEntities }, Tokenizer),
          );
        }
      }
    },
  );

  it('reports what the stock tokenizer reports on 3,000 generated documents, in chunks of every size', () => {
    const rnd = prng(41);
    let differing = 0;
    for (let n = 0; n < 3_000; n++) {
      const html = noise(rnd, 5 + Math.floor(rnd() * 80));
      const chunks = Array.from({ length: 3 }, () => 1 + Math.floor(rnd() * 40));
      const decodeEntities = rnd() < 0.8;
      const fast = events(html, chunks, { decodeEntities }, FastTokenizer);
      const stock = events(html, chunks, { decodeEntities }, Tokenizer);
      if (JSON.stringify(fast) !== JSON.stringify(stock)) {
        differing++;
        // The first difference in full, to say what went wrong.
        if (differing === 1) expect({ html, chunks, fast }).toEqual({ html, chunks, fast: stock });
      }
    }
    expect(differing).toBe(0);
  });

  it('reports what the stock tokenizer reports on whole pages (the verdict trap set), in 1 KB and 64 KB chunks', () => {
    const dir = path.join(__dirname, '..', '..', 'test-data', 'verdict-traps');
    const pages = readdirSync(dir).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(20);
    for (const f of pages) {
      const html = readFileSync(path.join(dir, f), 'utf8');
      for (const size of [1024, 64 * 1024]) {
        expect({ f, events: events(html, [size], { decodeEntities: true }, FastTokenizer) }).toEqual({
          f,
          events: events(html, [size], { decodeEntities: true }, Tokenizer),
        });
      }
    }
  });
});
