/** The page's pure helpers (no DOM needed): link safety, formatting, code snippets. */
import { formatAmount, formatNumber, formatTime } from '../web/format';
import { safeHref } from '../web/safe-href';
import { snippet } from '../web/snippets';

describe('safeHref', () => {
  it.each([
    ['https://example.com/a?b=1#c', 'https://example.com/a?b=1#c'],
    ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080/'],
    ['HTTPS://EXAMPLE.COM', 'https://example.com/'],
  ])('keeps http(s): %s', (input, expected) => {
    expect(safeHref(input)).toBe(expected);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://example.com/',
    '/relative/path',
    '//example.com/protocol-relative',
    'not a url',
    '',
    null,
    undefined,
  ])('refuses %p', (input) => {
    expect(safeHref(input)).toBeNull();
  });
});

describe('format', () => {
  it('numbers in en-US, signed amounts', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatAmount(1000)).toBe('+1,000');
    expect(formatAmount(-3)).toBe('-3');
    expect(formatAmount(0)).toBe('0');
  });

  it('times as YYYY-MM-DD HH:MM:SS UTC whatever the zone', () => {
    expect(formatTime('2026-11-24T03:04:05.678Z')).toBe('2026-11-24 03:04:05 UTC');
    expect(formatTime('2026-01-02T23:59:59+02:00')).toBe('2026-01-02 21:59:59 UTC');
    expect(formatTime(null)).toBe('—');
  });
});

describe('snippets', () => {
  const body = {
    url: "https://example.com/it's",
    format: 'markdown',
    onlyMainContent: false,
    engine: 'auto',
    timeout: 30000,
  };

  it('never inline a key; each reads WCS_API_KEY its own way', () => {
    expect(snippet('curl', body, 'http://localhost:3000')).toContain('Bearer $WCS_API_KEY');
    expect(snippet('node', body, 'http://localhost:3000')).toContain('process.env.WCS_API_KEY');
    expect(snippet('python', body, 'http://localhost:3000')).toContain('os.environ["WCS_API_KEY"]');
  });

  it('curl quotes the body for a POSIX shell', () => {
    const curl = snippet('curl', body, 'http://localhost:3000');
    expect(curl).toContain("'http://localhost:3000/v1/scrape'");
    // The single quote inside the URL is closed, escaped and reopened.
    expect(curl).toContain(`"url":"https://example.com/it'\\''s"`);
  });

  it('node and python carry the same JSON body', () => {
    const node = snippet('node', body, 'http://x');
    expect(node).toContain('"onlyMainContent": false');
    expect(node).toContain('"timeout": 30000');
    const python = snippet('python', body, 'http://x');
    expect(python).toContain('"onlyMainContent": False');
    expect(python).toContain('"timeout": 30000');
    expect(python).toContain('timeout=35');
  });
});
