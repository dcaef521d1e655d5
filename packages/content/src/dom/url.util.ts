/** URL resolution for links and images: <base href> first, then the page URL. */

export class UrlResolver {
  private readonly base: URL | null;

  constructor(pageUrl: string, baseHref?: string | null) {
    const page = safeUrl(pageUrl);
    this.base = (baseHref ? safeUrl(baseHref.trim(), page ?? undefined) : null) ?? page;
  }

  /** Absolute http(s)/mailto/tel URL, or null for empty, fragment-only-on-nothing and script URLs. */
  resolve(raw: string | undefined | null): string | null {
    if (!raw) return null;
    const href = raw.trim();
    if (href === '' || /^(?:javascript|vbscript|data):/i.test(href)) return null;
    if (!this.base) return /^[a-z][a-z0-9+.-]*:/i.test(href) ? href : null;
    const u = safeUrl(href, this.base);
    return u ? u.href : null;
  }

  /** Image source: data: URIs are dropped (they bloat output); srcset picks its first candidate. */
  resolveImage(src: string | undefined, srcset?: string): string | null {
    const direct = this.resolve(src);
    if (direct) return direct;
    if (srcset) {
      const first = srcset
        .trim()
        .split(/\s*,\s*/)[0]
        ?.split(/\s+/)[0];
      return this.resolve(first);
    }
    return null;
  }
}

function safeUrl(s: string, base?: URL): URL | null {
  try {
    return new URL(s, base);
  } catch {
    return null;
  }
}

/** Markdown link destinations cannot hold raw spaces or unbalanced parentheses. */
export const mdUrl = (u: string): string =>
  u.replace(/[ ()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
