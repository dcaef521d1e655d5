/**
 * Every service's bundle is ASCII (scripts/bundle-ascii.mjs) so its loader reads it as latin1 and
 * V8 holds it as a one-byte string: one character above U+00FF anywhere would double the 5–7 MB
 * it keeps for the process's life. The escaping must not change what the code means. Needs the
 * build (scripts/test.sh runs it first).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compiledService, SERVICE_PROCESSES } from '@wcs/runtime';

const ROOT = path.resolve(__dirname, '..', '..');

/** Runs `asciiSource` on `source` in a Node ES module (the build script is one). */
function escaped(source: string): string {
  const script = `
    import { asciiSource } from ${JSON.stringify(path.join(ROOT, 'scripts', 'bundle-ascii.mjs'))};
    process.stdout.write(asciiSource(process.argv[1]));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, source], {
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout;
}

/** What the sample's code computes (regexes tested, String.raw built, another tag's raw text). */
function evaluate(source: string): unknown[] {
  const run = new Function(
    'tag',
    `${source}; return [a.test('»x’'), a.test('x’'), b.test('😀'), b.source.length > 0, e, g, h.test('é')];`,
  );
  return run((s: TemplateStringsArray) => s.raw[0]);
}

it.each(SERVICE_PROCESSES)('the %s bundle is ASCII, and its loader reads it as latin1', (service) => {
  const dist = path.join(compiledService(service).cwd, 'dist');
  const bundle = readFileSync(path.join(dist, 'main.bundle.js'), 'latin1');
  expect(bundle.match(/[\u0080-\uffff]/g) ?? []).toEqual([]);
  expect(readFileSync(path.join(dist, 'main.js'), 'utf8')).toContain('readFileSync(file, "latin1")');
});

it('escapes regex literals, String.raw templates and comments without changing what they mean', () => {
  const sample = [
    'var a = /[»›€]x\\’/i;', // a class, an identity escape
    'var b = /[😀]/u;', // an astral character in unicode mode
    // raw text, a substitution, a backslash kept
    ['/* © */ var e = String.raw`ß\\s’', '$', '{1}ü`;'].join(''),
    'var g = tag`ö`;', // another tag: its raw text would change, so it is left
    'var h = new RegExp(String.raw`^[éè]$`);',
  ].join('\n');
  const out = escaped(sample);
  expect(evaluate(out)).toEqual(evaluate(sample));
  expect(evaluate(sample)).toEqual([true, false, true, true, 'ß\\s’1ü', 'ö', true]);
  // Only the other tag's template keeps its character.
  expect(out.match(/[\u0080-\uffff]/g)).toEqual(['ö']);
  // Code without a parse (not JavaScript) comes back unchanged rather than failing the build.
  expect(escaped('var x = «;')).toBe('var x = «;');
});
