/**
 * Pages for crawler tests, served by the fixture site next to its articles:
 * - `/tree`, `/tree/1`, `/tree/1/2`, …: a tree with `branching` children per node down to `depth`
 *   (deeper nodes are 404). Every node links to its children, its parent, itself (with a fragment
 *   and with a tracking parameter, which normalisation must fold into one URL), to /private/<path>
 *   (disallowed by the default robots.txt) and to another host.
 * - `/endless?page=N`: links to page N+1 and to N with extra query variants — never ends.
 * - `/private/...`: a normal page (so a crawler that ignores robots.txt would fetch it).
 */

export interface TreeOptions {
  branching: number;
  depth: number;
}

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><main><article><h1>${title}</h1>
<p>This is ${title}, a page of the crawl fixture. It has enough text to count as main content for the
extractor: crawlers walk trees like this one breadth first, and every node says where it sits.</p>
${body}
</article></main></body></html>
`;
}

/** Number of pages in a full tree of `depth` levels below the root (root included). */
export function treeSize(branching: number, depth: number): number {
  let total = 0;
  for (let d = 0, level = 1; d <= depth; d++, level *= branching) total += level;
  return total;
}

/** `/tree/1/2` -> [1, 2]; null when the path is not a tree path. */
function treeNode(path: string): number[] | null {
  if (path === '/tree') return [];
  const m = /^\/tree((?:\/\d+)+)$/.exec(path);
  return m?.[1] ? m[1].slice(1).split('/').map(Number) : null;
}

export function treePage(path: string, t: TreeOptions): { status: number; html: string } | null {
  const node = treeNode(path);
  if (!node) return null;
  if (node.length > t.depth || node.some((n) => n < 1 || n > t.branching)) {
    return { status: 404, html: page('Not found', '<p>No such node.</p>') };
  }
  const links: string[] = [];
  if (node.length < t.depth) {
    for (let i = 1; i <= t.branching; i++) links.push(`<a href="${path}/${i}">child ${i}</a>`);
  }
  if (node.length > 0) links.push(`<a href="${path.replace(/\/\d+$/, '') || '/tree'}">parent</a>`);
  links.push(`<a href="${path}#top">this page</a>`, `<a href="${path}?utm_source=fixture">share</a>`);
  links.push(
    `<a href="/private${path}">members only</a>`,
    '<a href="http://other.invalid/away">elsewhere</a>',
  );
  return {
    status: 200,
    html: page(`Tree node ${node.join('.') || 'root'}`, `<nav>${links.join(' ')}</nav>`),
  };
}

export function endlessPage(n: number): string {
  const links = [
    `<a href="/endless?page=${n + 1}">next</a>`,
    `<a href="/endless?page=${n}&view=${n % 7}">same page, other view</a>`,
    `<a href="/endless?page=${n}">this page</a>`,
  ];
  return page(`Endless page ${n}`, `<nav>${links.join(' ')}</nav>`);
}

export function privatePage(path: string): string {
  return page(`Private ${path}`, '<p>Robots should never see this.</p>');
}
