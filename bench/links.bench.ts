/**
 * Link extraction on hostile pages, before and after: 100k nested elements (closed, and never
 * closed) and a page of 100k links. "Before" is the previous extractLinks walk (htmlparser2's
 * Parser, whose element stack is an array it unshifts per open tag, then every href resolved),
 * "after" is extractLinks
 * (the Tokenizer alone, 5,000 links per page at most). No network.
 *
 *   pnpm exec tsx bench/links.bench.ts
 */
import { extractPageLinks } from '../packages/discovery/src/extract-links';
import { parserLinkWalk } from '../packages/discovery/src/test-support/parser-link-walk';

const N = 100_000;
const pages: Array<[string, string]> = [
  ['100k nested <div> (closed)', `<body>${'<div>'.repeat(N)}<a href="/x">x</a>${'</div>'.repeat(N)}`],
  ['100k nested <div><span> (unclosed)', `<body>${'<div><span>'.repeat(N)}<a href="/x">x</a>`],
  [
    '100k links',
    `<body>${Array.from({ length: N }, (_, i) => `<a href="/p/${i}?a=1">link ${i}</a>`).join('\n')}`,
  ],
];

const time = <T>(f: () => T): [T, number] => {
  const t0 = performance.now();
  const v = f();
  return [v, performance.now() - t0];
};

for (const [name, html] of pages) {
  const [count, before] = time(() => parserLinkWalk(html, 'https://example.com/'));
  const [res, after] = time(() => extractPageLinks(html, 'https://example.com/'));
  console.log(
    `${name.padEnd(36)} ${(html.length / 1e6).toFixed(1)} MB  before ${before.toFixed(0).padStart(5)} ms (${count} links)  after ${after.toFixed(0).padStart(4)} ms (${res.links.length} links${res.truncated ? ', truncated' : ''})`,
  );
}
