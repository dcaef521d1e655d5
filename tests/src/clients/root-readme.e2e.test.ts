/**
 * Runs every ```js example of the root README.md (the Node client, the Firecrawl SDK switched by its
 * apiUrl) as its own Node program against the real service, with `https://example.com` pointed at the
 * local fixture site and `http://localhost:3002` at the gateway: the front door cannot rot.
 * (The clients' own READMEs are run by client-node-readme.e2e.test.ts and the Python suite.)
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type ClientStack, startClientStack } from './client-stack';

const ROOT = path.join(__dirname, '../../..');
// Inside tests/ so the packages resolve through tests/node_modules, like installed ones; not
// tests/.examples, which client-node-readme.e2e.test.ts empties when it starts (maybe in parallel).
const WORK_DIR = path.join(ROOT, 'tests/.examples-root-readme');

function examplesOf(language: string): string[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  return [...readme.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map(
    (m) => m[1] ?? '',
  );
}

/** The example's top-level `const`s (plain or destructured), printed as JSON at its end. */
function withResults(code: string): { code: string; names: string[] } {
  const names = [...code.matchAll(/^const (?:(\w+)|\{ ([\w, ]+) \}) =/gm)].flatMap((m) =>
    m[1] ? [m[1]] : (m[2] ?? '').split(',').map((s) => s.trim()),
  );
  return { code: `${code}\nconsole.log(JSON.stringify({ ${names.join(', ')} }));\n`, names };
}

/** The Python example's assigned names, printed as JSON at its end (inside its `with`, indented). */
function withPythonResults(code: string): { code: string; names: string[] } {
  const names = [...code.matchAll(/^(\s*)(\w+) = /gm)].map((m) => m[2] ?? '');
  const indent = code.match(/^(\s*)\w+ = [^\n]*\n?$/m)?.[1] ?? '';
  const values = names.map((n) => `"${n}": ${n}`).join(', ');
  return { code: `import json\n${code}${indent}print(json.dumps({${values}}, default=str))\n`, names };
}

function run(
  cmd: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: WORK_DIR, env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

const examples = examplesOf('js');
// The Python client's example; the package itself has no install step here (PYTHONPATH), as in its suite.
const pythonExamples = examplesOf('python').filter((e) => e.includes('wcs_client'));

describe('root README.md examples', () => {
  let s: ClientStack;

  beforeAll(async () => {
    s = await startClientStack();
    mkdirSync(WORK_DIR, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    rmSync(WORK_DIR, { recursive: true, force: true });
  });

  it('has the Node client and the Firecrawl SDK examples', () => {
    expect(examples.some((e) => e.includes("from '@wcs/client-node'"))).toBe(true);
    expect(examples.some((e) => e.includes("apiUrl: 'http://localhost:3002/firecrawl'"))).toBe(true);
    expect(pythonExamples.length).toBeGreaterThan(0);
  });

  it.each(pythonExamples.map((code, i) => [i + 1, code] as const))(
    'python example %i runs and every value it computes is there',
    async (index, example) => {
      const { code, names } = withPythonResults(example.replaceAll('https://example.com', s.site.url));
      const file = path.join(WORK_DIR, `root-readme-${index}.py`);
      writeFileSync(file, code);
      const res = await run('/usr/bin/python3', [file], {
        ...s.clientEnv,
        PYTHONPATH: path.join(ROOT, 'packages/client-python/src'),
        PYTHONDONTWRITEBYTECODE: '1',
      });
      if (res.code !== 0)
        throw new Error(`python example ${index} exited ${res.code}:\n${res.err}\n${res.out}`);
      const values = JSON.parse(res.out.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect([name, values[name] ?? null]).not.toEqual([name, null]);
      const crawl = values.crawl as { status?: string } | undefined;
      if (crawl) expect(crawl.status).toBe('done');
    },
    120_000,
  );

  it.each(examples.map((code, i) => [i + 1, code] as const))(
    'example %i runs and every value it computes is there',
    async (index, example) => {
      const { code, names } = withResults(
        example.replaceAll('https://example.com', s.site.url).replaceAll('http://localhost:3002', s.baseUrl),
      );
      const file = path.join(WORK_DIR, `root-readme-${index}.mjs`);
      writeFileSync(file, code);
      const res = await run(process.execPath, [file], s.clientEnv);
      if (res.code !== 0) throw new Error(`example ${index} exited ${res.code}:\n${res.err}\n${res.out}`);
      const values = JSON.parse(res.out.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect([name, values[name] ?? null]).not.toEqual([name, null]);
      const crawl = values.crawl as { status?: string } | undefined;
      // The native crawl ends `done`, the Firecrawl one `completed`: both mean every page was crawled.
      if (crawl) expect(['done', 'completed']).toContain(crawl.status);
    },
    120_000,
  );
});
