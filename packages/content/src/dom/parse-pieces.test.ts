import type { AnyNode } from 'domhandler';
import { prng } from '../test-support/prng';
import { isElement, isText, parseHtml } from './dom.util';
import type { ContentCuts } from './input-caps';

/** The tree as plain data: names, attributes and text, in order. */
const shape = (n: AnyNode): unknown =>
  isElement(n)
    ? [n.name, n.attribs, n.children.map(shape)]
    : isText(n)
      ? n.data
      : [n.type, 'data' in n ? n.data : null, 'children' in n ? n.children.map(shape) : null];

const WORDS = [
  '<![CDATA[',
  ']]>',
  '<p>',
  '</p>',
  '<div class="a">',
  '</div>',
  'text ',
  'é',
  '<script>',
  '</script>',
  '<!-- c -->',
  '&amp;',
  '<b>',
  '</b>',
];

/** `text` cut at random offsets (pieces of any length, one character included). */
function cutAtRandom(text: string, next: () => number): string[] {
  const pieces: string[] = [];
  let at = 0;
  while (at < text.length) {
    const len = 1 + Math.floor(next() * (next() < 0.3 ? 3 : 40));
    pieces.push(text.slice(at, at + len));
    at += len;
  }
  return pieces;
}

describe("parseHtml over the decoder's pieces", () => {
  it('builds the tree it builds from the joined markup, CDATA marks cut anywhere included', () => {
    const next = prng(23);
    for (let t = 0; t < 1500; t++) {
      const html = Array.from(
        { length: Math.floor(next() * 40) },
        () => WORDS[Math.floor(next() * WORDS.length)],
      ).join('');
      const pieces = cutAtRandom(html, next);
      const fromPieces: ContentCuts = {};
      const whole: ContentCuts = {};
      expect(shape(parseHtml(html, fromPieces, pieces))).toEqual(shape(parseHtml(html, whole)));
      expect(fromPieces).toEqual(whole);
    }
  });

  it('cleans CDATA marks piece by piece when none is cut between two pieces', () => {
    const a = `<p>one<![CDATA[ two ]]>three</p>${'x'.repeat(20)}`;
    const b = `<p>four<![CDATA[five]]></p>`;
    const doc = parseHtml(a + b, {}, [a, b]);
    expect(shape(doc)).toEqual(shape(parseHtml(a + b)));
  });
});
