import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The repository root (tests/src/ is two folders down). */
export const ROOT = join(__dirname, '..', '..');

/** Where the repository's own TypeScript lives (the trees `pnpm depcheck` reads). */
export const SOURCE_TREES = ['packages', 'services', 'tests', 'bench', 'scripts'];

/** Folders that hold no source of ours: installs, builds, vendored pages, bench output. */
const SKIPPED = new Set(['node_modules', 'dist', 'generated', 'test-data', 'out']);

/** Every file under `trees` (paths relative to the root, `/`-separated), skipped folders aside. */
export function repoFiles(trees: readonly string[] = SOURCE_TREES): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIPPED.has(entry.name) || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(relative(ROOT, path).split('\\').join('/'));
    }
  };
  for (const tree of trees) walk(join(ROOT, tree));
  return files.sort();
}
