import { buildOpenApiDocument } from './openapi.document';
import { OPERATIONS } from './operations';

type Schema = {
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: unknown;
} & Record<string, unknown>;

const doc = buildOpenApiDocument(OPERATIONS) as {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content: Record<string, { schema: Schema }> }> }>
  >;
  components: { schemas: Record<string, Schema> };
};
const success = (path: string, method: string, status: string): Schema =>
  doc.paths[path]![method]!.responses[status]!.content['application/json']!.schema;

describe('OpenAPI responses are generated from the response contract', () => {
  it('describes the scrape document with its named metadata fields, strictly', () => {
    const data = success('/v1/scrape', 'post', '200').properties!.data!;
    // `formats` picks the fields; only metadata is always there.
    expect(data.required).toEqual(['metadata']);
    expect(Object.keys(data.properties!)).toEqual(
      expect.arrayContaining(['markdown', 'rawHtml', 'links', 'images', 'screenshot', 'actions']),
    );
    const metadata = data.properties!.metadata!;
    expect(metadata.additionalProperties).toBe(false);
    expect(metadata.required).toEqual(['title', 'statusCode', 'sourceURL']);
    expect(Object.keys(metadata.properties!)).toEqual(
      expect.arrayContaining(['description', 'language', 'canonicalUrl', 'finalUrl', 'ogImage', 'cachedAt']),
    );
  });

  it('has a response schema for every operation, and the one error shape', () => {
    for (const [path, methods] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(methods)) {
        const [status, response] = Object.entries(op.responses)[0]!;
        const [media, { schema }] = Object.entries(response.content)[0]!;
        // The ledger's CSV export and the screenshots are the non-JSON successes.
        const expected = path.endsWith('.csv')
          ? 'text/csv string'
          : path.endsWith('.png')
            ? 'image/png string'
            : 'application/json object';
        expect(`${method} ${path} ${status} ${media} ${schema.type}`).toBe(
          `${method} ${path} ${status} ${expected}`,
        );
      }
    expect(doc.components.schemas.Error!.required).toEqual(['success', 'error', 'code']);
    expect(success('/v1/map', 'post', '200').required).toEqual(['success', 'links', 'total']);
    expect(Object.keys(success('/v1/map', 'post', '200').properties!)).toContain('warning');
  });

  it('documents where the page headers go (headersScope) on every feature that takes headers', () => {
    const body = (path: string) =>
      (
        doc.paths[path]!.post as unknown as {
          requestBody: { content: { 'application/json': { schema: Schema } } };
        }
      ).requestBody.content['application/json'].schema;
    for (const path of ['/v1/scrape', '/v1/batch/scrape', '/v1/extract', '/v1/monitor']) {
      expect({ path, scope: body(path).properties?.headersScope }).toMatchObject({
        path,
        scope: { enum: ['origin', 'all'], description: expect.stringContaining('origin') },
      });
    }
    expect(body('/v1/crawl').properties?.scrapeOptions?.properties?.headersScope).toMatchObject({
      enum: ['origin', 'all'],
    });
  });
});
