import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  API_REFERENCE,
  CONFIG_REFERENCE,
  generateApiReference,
  generateConfigReference,
} from '../../scripts/docs-reference';

/**
 * The reference pages are generated (scripts/docs-reference.ts): the API one from the OpenAPI
 * document the gateway serves, the configuration one from the services' zod env schemas. Regenerated
 * here in-process, so a route, field or setting cannot change without its page.
 */
const ROOT = join(__dirname, '../..');

/** The first line where the committed page and the generated one differ, with the fix. */
function drift(file: string, generated: string): string | undefined {
  const committed = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const fresh = generated.split('\n');
  const at = fresh.findIndex((line, i) => committed[i] !== line);
  if (at < 0 && committed.length === fresh.length) return undefined;
  const line = at < 0 ? Math.min(committed.length, fresh.length) : at;
  return `${file} is out of date at line ${line + 1}: run \`pnpm exec tsx scripts/docs-reference.ts\` and commit it (generated: ${JSON.stringify(fresh[line])}, committed: ${JSON.stringify(committed[line])})`;
}

describe('generated reference pages', () => {
  it(`${API_REFERENCE} is the one generated from the OpenAPI document`, () => {
    const page = generateApiReference();
    expect(page).toContain('## `POST /v1/scrape`');
    expect(drift(API_REFERENCE, page)).toBeUndefined();
  });

  it(`${CONFIG_REFERENCE} is the one generated from the env schemas`, () => {
    const page = generateConfigReference();
    expect(page).toMatch(/\| `SHUTDOWN_DRAIN_MS` +\| `15000` +\|/);
    expect(drift(CONFIG_REFERENCE, page)).toBeUndefined();
  });
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

describe('the front door', () => {
  it('the root README stays a front door: at most 250 lines', () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length;
    // Manual text belongs in docs/ (api.md, operations.md, ...), linked from "Read on".
    expect(lines).toBeLessThanOrEqual(250);
  });

  it('every relative link of the README and docs/ pages reaches a file (and its heading)', () => {
    const pages = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.md'))
        .map((f) => join('docs', f)),
    ];
    const broken: string[] = [];
    for (const page of pages) {
      const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (target === undefined || /^[a-z]+:/i.test(target)) continue;
        const [file = '', anchor] = target.split('#');
        const resolved = file === '' ? join(ROOT, page) : join(ROOT, dirname(page), file);
        if (!existsSync(resolved)) {
          broken.push(`${page}: ${target}`);
        } else if (anchor && resolved.endsWith('.md')) {
          const headings = [...readFileSync(resolved, 'utf8').matchAll(/^#+ (.+)$/gm)].map((m) =>
            slug(m[1] ?? ''),
          );
          if (!headings.includes(anchor)) broken.push(`${page}: ${target} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
