/**
 * A failure inside the content pipeline is an error (ContentProcessingError, refunded by every
 * caller), never an empty document that would be billed. The seam: metadata extraction throws
 * for pages carrying a marker; every other page goes through the real module.
 */
import { ContentProcessingError, decodeError, encodeError } from '@wcs/errors';
import { processDocument, processHtml } from './index';

jest.mock('./extract/metadata.extractor', () => {
  const actual = jest.requireActual('./extract/metadata.extractor');
  return {
    ...actual,
    extractMetadata: (input: { doc: { children: unknown[] } }) => {
      if (hasMarker(input.doc)) throw new TypeError('boom in the pipeline');
      return actual.extractMetadata(input);
    },
  };
});

function hasMarker(doc: unknown): boolean {
  const stack: unknown[] = [doc];
  while (stack.length > 0) {
    const n = stack.pop() as { name?: string; attribs?: Record<string, string>; children?: unknown[] };
    if (n.name === 'meta' && n.attribs?.name === 'x-test-explode') return true;
    if (n.children) stack.push(...n.children);
  }
  return false;
}

const URL = 'https://example.com/broken';
const exploding =
  '<html><head><meta name="x-test-explode" content="1"></head><body><p>Text</p></body></html>';

describe('content pipeline failures', () => {
  it('throw ContentProcessingError (CONTENT_PROCESSING_FAILED, 500, the URL, the cause) instead of an empty document', () => {
    let thrown: unknown;
    try {
      processHtml(exploding, { url: URL, formats: ['markdown', 'json'] });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ContentProcessingError);
    const se = thrown as ContentProcessingError;
    expect(se).toMatchObject({ code: 'CONTENT_PROCESSING_FAILED', status: 500, retryable: false });
    expect(se.details).toEqual({ url: URL });
    expect(se.message).toContain(URL);
    expect(se.message).not.toContain('boom');
    expect((se.cause as Error).message).toBe('boom in the pipeline');
    // the code survives the queue, so the gateway answers (and refunds) with it
    expect(decodeError(encodeError(se))).toMatchObject({ code: 'CONTENT_PROCESSING_FAILED', status: 500 });
  });

  it('reach processDocument callers too', () => {
    expect(() =>
      processDocument({ body: exploding, contentType: 'text/html; charset=utf-8', url: URL }, {}),
    ).toThrow(ContentProcessingError);
  });

  it('other pages are unaffected by the seam', () => {
    expect(processHtml('<html><body><p>Fine text here.</p></body></html>', { url: URL }).markdown).toBe(
      'Fine text here.',
    );
  });

  it('a container of thousands of loose boilerplate lines does not throw', () => {
    // How long it takes: the loose-lines line of `pnpm bench:content`.
    const para =
      '<p>Some long paragraph text, with commas, and more words to make it count as prose here.</p>';
    const many = `<html><body><article><div>${`Advertisement<br>${para}`.repeat(20000)}</div></article></body></html>`;
    const out = processHtml(many, { url: URL, formats: ['markdown'] });
    expect(out.markdown).toContain('count as prose');
    const few = `<html><body><article><div>${`Advertisement<br>${para}`.repeat(3)}${para.repeat(4)}</div></article></body></html>`;
    expect(processHtml(few, { url: URL, formats: ['markdown'] }).markdown).not.toContain('Advertisement');
  });
});
