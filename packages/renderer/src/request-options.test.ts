import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRenderer } from './renderer';
import { testOptions } from './test-support/options';

/** RenderRequest.request (@wcs/net RequestOptions) reaches the wire unchanged. */
describe('per-request options', () => {
  it('the fetch engine sends request.headers and request.cookies', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const renderer = createRenderer(testOptions());
    try {
      await renderer.render({
        url: `http://127.0.0.1:${port}/`,
        engine: 'fetch',
        headers: { 'X-Old': '1' },
        request: {
          headers: { 'X-New': '2', 'accept-language': 'de' },
          cookies: { sid: 'abc', theme: 'dark' },
        },
      });
      expect(seen[0]).toMatchObject({
        'x-old': '1',
        'x-new': '2',
        'accept-language': 'de',
        cookie: 'sid=abc; theme=dark',
      });
    } finally {
      await renderer.close();
      server.close();
    }
  });
});
