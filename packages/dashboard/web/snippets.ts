/** The same POST /v1/scrape request as curl, Node (fetch) and Python (httpx); the key is never inlined. */

export interface ScrapeRequest {
  url: string;
  format: string;
  onlyMainContent: boolean;
  engine: string;
  waitFor?: number;
  timeout?: number;
}

export type SnippetLanguage = 'curl' | 'node' | 'python';

/** Single-quoted for POSIX shells: ' becomes '\'' . */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** JSON → Python literal: true/false/null differ, the rest (strings, numbers, dicts) is valid Python. */
function pythonLiteral(value: unknown, indent: string): string {
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'object') {
    const inner = `${indent}    `;
    const entries = Object.entries(value).map(
      ([k, v]) => `${inner}${JSON.stringify(k)}: ${pythonLiteral(v, inner)},`,
    );
    return `{\n${entries.join('\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

export function snippet(language: SnippetLanguage, body: ScrapeRequest, origin: string): string {
  const endpoint = `${origin}/v1/scrape`;
  switch (language) {
    case 'curl':
      return [
        `curl -sS -X POST ${shellQuote(endpoint)} \\`,
        `  -H "Authorization: Bearer $WCS_API_KEY" \\`,
        `  -H 'Content-Type: application/json' \\`,
        `  -d ${shellQuote(JSON.stringify(body))}`,
      ].join('\n');
    case 'node':
      return [
        `const response = await fetch(${JSON.stringify(endpoint)}, {`,
        `  method: 'POST',`,
        `  headers: {`,
        `    Authorization: \`Bearer \${process.env.WCS_API_KEY}\`,`,
        `    'Content-Type': 'application/json',`,
        `  },`,
        `  body: JSON.stringify(${JSON.stringify(body, null, 2).replace(/\n/g, '\n  ')}),`,
        `});`,
        `const { data } = await response.json();`,
        `console.log(data.${body.format === 'json' ? 'json' : body.format});`,
      ].join('\n');
    case 'python':
      return [
        'import os',
        '',
        'import httpx',
        '',
        'response = httpx.post(',
        `    ${JSON.stringify(endpoint)},`,
        `    headers={"Authorization": "Bearer " + os.environ["WCS_API_KEY"]},`,
        `    json=${pythonLiteral(body, '    ')},`,
        `    timeout=${Math.ceil((body.timeout ?? 60000) / 1000) + 5},`,
        ')',
        'response.raise_for_status()',
        `print(response.json()["data"]["${body.format === 'json' ? 'json' : body.format}"])`,
      ].join('\n');
  }
}
