import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { DASHBOARD_DIST_DIR, dashboardBuilt } from './index';

/** The built page must run under the gateway's CSP (script-src 'self'; style-src 'self') and stay small. */

const BUDGET_GZIP_BYTES = 150 * 1024;

function html(): string {
  if (!dashboardBuilt()) {
    throw new Error(
      `${DASHBOARD_DIST_DIR}/index.html is missing: run \`pnpm --filter @wcs/dashboard run build\` first`,
    );
  }
  return readFileSync(path.join(DASHBOARD_DIST_DIR, 'index.html'), 'utf8');
}

function assets(): string[] {
  return readdirSync(path.join(DASHBOARD_DIST_DIR, 'assets'));
}

describe('dashboard dist', () => {
  it('has no inline script, style element or style attribute', () => {
    const page = html();
    const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(body?.trim()).toBe('');
      expect(attrs).toMatch(/\bsrc="\/dashboard\/assets\//);
    }
    expect(page).not.toMatch(/<style\b/i);
    expect(page).not.toMatch(/\sstyle=/i);
    expect(page).not.toMatch(/\son[a-z]+=/i);
  });

  it('references no external URL and declares the basics', () => {
    const page = html();
    expect(page).not.toMatch(/https?:\/\//i);
    expect(page).toMatch(/<html lang="en">/);
    expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"');
    expect(page).toMatch(/<title>[^<]+<\/title>/);
    expect(page).toContain('<link rel="icon" href="data:,"');
  });

  it('every referenced asset exists, under /dashboard/assets/ with a hashed name', () => {
    const page = html();
    const refs = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    const local = refs.filter((r) => r !== 'data:,');
    expect(local.length).toBeGreaterThanOrEqual(2);
    const files = new Set(assets());
    for (const ref of local) {
      expect(ref).toMatch(/^\/dashboard\/assets\/[\w.-]+-[\w-]{6,}\.(js|css)$/);
      expect(files.has(ref.replace('/dashboard/assets/', ''))).toBe(true);
    }
  });

  it('assets load nothing from elsewhere', () => {
    html();
    for (const file of assets()) {
      const text = readFileSync(path.join(DASHBOARD_DIST_DIR, 'assets', file), 'utf8');
      expect(text).not.toMatch(/<script[^>]+src=["']?https?:/i);
      expect(text).not.toMatch(/@import\s+url\(["']?https?:/i);
      if (file.endsWith('.css')) expect(text).not.toMatch(/url\(["']?https?:/i);
    }
  });

  it(`total JavaScript is under ${BUDGET_GZIP_BYTES / 1024} KB gzipped`, () => {
    html();
    const total = assets()
      .filter((f) => f.endsWith('.js'))
      .reduce((sum, f) => sum + gzipSync(readFileSync(path.join(DASHBOARD_DIST_DIR, 'assets', f))).length, 0);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(BUDGET_GZIP_BYTES);
  });
});
