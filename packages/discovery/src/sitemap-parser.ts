/**
 * Streaming sitemap parser: XML <urlset> / <sitemapindex> (sitemaps.org), RSS 2.0 / RSS 1.0 <item>
 * <link> and Atom <entry><link href>, or a plain-text sitemap (one URL per line). Reads the
 * decoded byte stream chunk by chunk through htmlparser2's tokenizer, so memory stays bounded
 * whatever the file size; the sink can stop it early. XML nested deeper than MAX_XML_DEPTH is not
 * a sitemap (real ones nest 3–5 levels): refused at once, since htmlparser2's Parser keeps open
 * elements in an array it unshifts per tag (quadratic: 100k nested elements take seconds).
 * A urlset page is reported at its `</url>`, with the entry's `<lastmod>` (either order inside
 * `<url>`; sitemap-lastmod.ts: an invalid one is left out).
 */
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { Parser } from 'htmlparser2';
import { MAX_LASTMOD_LENGTH, parseLastmod } from './sitemap-lastmod';

export type SitemapKind = 'urlset' | 'sitemapindex' | 'feed' | 'text';

export interface SitemapSink {
  /**
   * A page URL (urlset, feed, text) or a child sitemap (sitemapindex), as written, with a urlset
   * entry's valid `<lastmod>` (its latest instant: sitemap-lastmod.ts). Return false to stop.
   */
  onLoc(loc: string, type: 'page' | 'sitemap', lastmod?: Date): boolean;
}

export interface SitemapParseResult {
  kind: SitemapKind;
  /** True when the byte cap ended the file early. */
  truncated: boolean;
}

const MAX_LOC = 8_192;
export const MAX_XML_DEPTH = 32;
const ROOTS: Record<string, SitemapKind> = {
  urlset: 'urlset',
  sitemapindex: 'sitemapindex',
  rss: 'feed',
  rdf: 'feed',
  feed: 'feed',
};

const localName = (name: string): string => {
  const i = name.indexOf(':');
  return (i === -1 ? name : name.slice(i + 1)).toLowerCase();
};

export class NotASitemapError extends Error {}

/** Parse `body` until it ends, the sink says stop, or `maxBytes` decoded bytes were read. */
export async function parseSitemapStream(
  body: Readable,
  sink: SitemapSink,
  maxBytes: number,
): Promise<SitemapParseResult> {
  const decoder = new StringDecoder('utf8');
  let kind: SitemapKind | null = null;
  let stopped = false;
  let failure: Error | null = null;
  let bytes = 0;
  let truncated = false;

  // XML state
  const stack: string[] = [];
  let capture: { type: 'page' | 'sitemap' | 'lastmod'; text: string } | null = null;
  /** The urlset `<url>` being read: its loc and lastmod, reported at its close. */
  let entry: { loc?: string; lastmod?: string } | null = null;
  const stop = () => {
    stopped = true;
    if (kind !== 'text') xml.pause(); // not even the rest of the current chunk
  };
  const emit = (loc: string, type: 'page' | 'sitemap', lastmod?: Date) => {
    const v = loc.trim();
    if (v && v.length <= MAX_LOC && !sink.onLoc(v, type, lastmod)) stop();
  };
  const xml = new Parser(
    {
      onopentag(name, attrs) {
        if (failure) return;
        const local = localName(name);
        if (stack.length === 0 && kind === null) {
          const k = ROOTS[local];
          if (!k) {
            failure = new NotASitemapError(`not a sitemap (root element <${name}>)`);
            stop();
            return;
          }
          kind = k;
        }
        const parent = stack[stack.length - 1];
        stack.push(local);
        if (stack.length > MAX_XML_DEPTH) {
          failure = new NotASitemapError(
            `not a sitemap (elements nested deeper than ${MAX_XML_DEPTH} levels)`,
          );
          stop();
          return;
        }
        if (kind === 'urlset' && local === 'url' && parent === 'urlset') entry = {};
        else if (kind === 'urlset' && local === 'loc' && parent === 'url')
          capture = { type: 'page', text: '' };
        else if (kind === 'urlset' && local === 'lastmod' && parent === 'url')
          capture = { type: 'lastmod', text: '' };
        else if (kind === 'sitemapindex' && local === 'loc' && parent === 'sitemap')
          capture = { type: 'sitemap', text: '' };
        else if (kind === 'feed' && local === 'link' && (parent === 'item' || parent === 'entry')) {
          const rel = attrs.rel?.toLowerCase();
          if (attrs.href !== undefined) {
            if (!rel || rel === 'alternate') emit(attrs.href, 'page');
          } else capture = { type: 'page', text: '' };
        }
      },
      ontext(text) {
        const cap = capture?.type === 'lastmod' ? MAX_LASTMOD_LENGTH : MAX_LOC;
        if (capture && capture.text.length <= cap) capture.text += text;
      },
      onclosetag() {
        const closed = stack.pop();
        if (capture) {
          const c = capture;
          capture = null;
          // Inside a urlset <url>: kept for its close (the first of each; a second is not the entry's).
          if (entry && c.type === 'lastmod') entry.lastmod ??= c.text;
          else if (entry && c.type === 'page') entry.loc ??= c.text;
          else if (c.type !== 'lastmod') emit(c.text, c.type);
        } else if (entry && closed === 'url' && stack.length === 1) {
          const e = entry;
          entry = null;
          if (e.loc !== undefined)
            emit(e.loc, 'page', e.lastmod === undefined ? undefined : parseLastmod(e.lastmod));
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );

  // Plain-text state
  let line = '';
  const textChunk = (s: string, final: boolean) => {
    const parts = (line + s).split(/\r\n|\r|\n/);
    line = final ? '' : (parts.pop() ?? '');
    if (line.length > MAX_LOC) line = ''; // an absurd line is not a URL; drop it
    for (const p of parts) {
      if (stopped) return;
      const v = p.trim();
      if (/^https?:\/\//i.test(v)) emit(v, 'page');
    }
  };

  const feed = (s: string, final: boolean) => {
    if (kind === null) {
      const start = s.replace(/^\uFEFF/, '').trimStart();
      if (start === '' && !final) {
        return; // only whitespace so far: wait for content (whitespace is dropped, harmless)
      }
      if (!start.startsWith('<')) kind = 'text';
      s = start;
    }
    if (kind === 'text') textChunk(s, final);
    else {
      xml.write(s);
      if (final) xml.end();
    }
  };

  try {
    for await (const chunk of body) {
      const buf = chunk as Buffer;
      bytes += buf.length;
      if (bytes > maxBytes) {
        truncated = true;
        feed(decoder.write(buf.subarray(0, buf.length - (bytes - maxBytes))), false);
        break;
      }
      feed(decoder.write(buf), false);
      if (stopped) break;
    }
    if (!stopped) feed(decoder.end(), true);
  } finally {
    if (!body.destroyed) body.destroy();
  }
  if (failure) throw failure;
  if (kind === null) throw new NotASitemapError('empty sitemap');
  return { kind, truncated };
}
