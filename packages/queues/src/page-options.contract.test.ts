import { pageActions, pageHeaders, pageOptionFields, splitPageOptions } from './page-options.contract';

const issue = (r: {
  success: boolean;
  error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
}) => (r.success ? 'ok' : `${r.error?.issues[0]?.path.join('.')}: ${r.error?.issues[0]?.message}`);

describe('page options contract', () => {
  it('refuses headers the engines own, and values they would put on the wire differently', () => {
    expect(issue(pageHeaders.safeParse({ 'X-Gate': 'open', Cookie: 'a=1' }))).toBe('ok');
    for (const name of [
      'Host',
      'content-length',
      'Transfer-Encoding',
      'Connection',
      'Expect',
      'Proxy-Authorization',
    ]) {
      expect(issue(pageHeaders.safeParse({ [name]: 'x' }))).toMatch(
        new RegExp(`^${name}: is set by the service`),
      );
    }
    expect(issue(pageHeaders.safeParse({ 'bad name': 'x' }))).toBe('bad name: is not an HTTP header name');
    expect(issue(pageHeaders.safeParse({ a: 'caf\u00e9' }))).toMatch(/^a: header values are visible ASCII/);
    expect(issue(pageHeaders.safeParse({ a: 'x\r\nInjected: 1' }))).toMatch(
      /^a: header values are visible ASCII/,
    );
    expect(issue(pageHeaders.safeParse({ a: 'tab\tand space' }))).toBe('ok');
  });

  it('bounds the number of headers and their size', () => {
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`x-h${i}`, 'v']));
    expect(issue(pageHeaders.safeParse(many))).toMatch(/at most 50 headers/);
    expect(issue(pageHeaders.safeParse({ big: 'x'.repeat(17_000) }))).toMatch(/more than 16384 bytes/);
  });

  it('bounds actions: count, total wait, exactly one of milliseconds or selector', () => {
    const click = { type: 'click', selector: '#a' };
    expect(issue(pageActions.safeParse(Array(50).fill(click)))).toBe('ok');
    expect(issue(pageActions.safeParse(Array(51).fill(click)))).toMatch(/at most 50 actions/);
    const waits = [
      { type: 'wait', milliseconds: 40_000 },
      { type: 'wait', milliseconds: 30_000 },
    ];
    expect(issue(pageActions.safeParse(waits))).toMatch(/add up to more than 60000 ms/);
    expect(issue(pageActions.safeParse([{ type: 'wait' }]))).toMatch(
      /exactly one of milliseconds or selector/,
    );
    expect(issue(pageActions.safeParse([{ type: 'hover', selector: 'a' }]))).toMatch(/^0\.type/);
  });

  it('splits a body into plain options and secrets, leaving out what was not given', () => {
    expect(splitPageOptions({ formats: ['links'], mobile: true })).toEqual({
      options: { formats: ['links'], mobile: true },
      secrets: undefined,
    });
    expect(
      splitPageOptions({ headers: { a: 'b' }, actions: [{ type: 'press', key: 'Enter' }], maxAge: 5 }),
    ).toEqual({
      options: { maxAge: 5 },
      secrets: { headers: { a: 'b' }, actions: [{ type: 'press', key: 'Enter' }] },
    });
  });

  it('headersScope is origin or all, and travels with the plain options (where headers go is no secret)', () => {
    expect(pageOptionFields.headersScope.safeParse('origin').success).toBe(true);
    expect(pageOptionFields.headersScope.safeParse('all').success).toBe(true);
    expect(pageOptionFields.headersScope.safeParse('everywhere').success).toBe(false);
    expect(splitPageOptions({ headers: { 'X-Api-Key': 'k' }, headersScope: 'all' })).toEqual({
      options: { headersScope: 'all' },
      secrets: { headers: { 'X-Api-Key': 'k' } },
    });
  });
});
