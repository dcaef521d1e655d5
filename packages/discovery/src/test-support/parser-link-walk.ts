/**
 * What extractLinks did before it ran the Tokenizer alone: htmlparser2's Parser walk (an element
 * stack it unshifts per open tag), then every href resolved and de-duplicated. Only the "before"
 * figure of bench/links.bench.ts.
 */
import { Parser } from 'htmlparser2';
import { identifyUrl } from '../normalize-url';

export function parserLinkWalk(html: string, pageUrl: string): number {
  const hrefs: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if ((name === 'a' || name === 'area') && attrs.href) hrefs.push(attrs.href);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  const byKey = new Map<string, string>();
  for (const h of hrefs) {
    const id = identifyUrl(h, pageUrl);
    if (id && !byKey.has(id.key)) byKey.set(id.key, id.url);
  }
  return byKey.size;
}
