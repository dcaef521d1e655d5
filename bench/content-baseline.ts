/**
 * The content package of an earlier revision, compiled as that revision compiled it, loaded into
 * the bench process beside the current one: `pnpm bench:content` scores and times both on the same
 * pages in the same run, so "before" and "after" share the machine's load at that moment (figures
 * written down in another session on a shared machine are not comparable: they move by ±20%).
 *
 * The revision's `packages/content`, `packages/errors`, `scripts/build.mjs` and `tsconfig.base.json` come out of git
 * (`git archive`) into `bench/out/baseline/<commit>/`; its dependencies resolve through the current
 * install (the same pnpm store links), which holds as long as the content package's dependency
 * versions did not change since that revision — checked, not assumed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import type * as Content from '../packages/content/src';

export interface Baseline {
  /** The revision as given and its commit (12 hex digits). */
  rev: string;
  commit: string;
  processHtml: typeof Content.processHtml;
}

const git = (repoRoot: string, ...args: string[]): string =>
  execFileSync('git', ['-C', repoRoot, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    .toString()
    .trim();

/** Throws with the reason when the revision cannot be built here (unknown revision, changed deps). */
export function loadBaseline(repoRoot: string, rev: string): Baseline {
  const commit = git(repoRoot, 'rev-parse', '--short=12', `${rev}^{commit}`);
  const manifest = 'packages/content/package.json';
  const then = JSON.parse(git(repoRoot, 'show', `${commit}:${manifest}`)) as { dependencies?: object };
  const now = JSON.parse(readFileSync(path.join(repoRoot, manifest), 'utf8')) as { dependencies?: object };
  if (JSON.stringify(then.dependencies) !== JSON.stringify(now.dependencies)) {
    throw new Error(
      `${manifest} dependencies changed since ${commit}: its build would not be that revision's`,
    );
  }
  const dir = path.join(repoRoot, 'bench/out/baseline', commit);
  const dist = path.join(dir, 'packages/content/dist/index.js');
  if (!existsSync(dist)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(path.join(dir, 'services'), { recursive: true }); // build.mjs lists services/ too
    const paths = ['packages/content', 'packages/errors', 'scripts/build.mjs', 'tsconfig.base.json'];
    const tar = execFileSync('git', ['-C', repoRoot, 'archive', commit, ...paths], {
      maxBuffer: 256 * 1024 * 1024,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    // pnpm's links are relative (../../../node_modules/.pnpm/…, ../../../errors): the same
    // layout under dir resolves them to the current store and to the revision's own errors package.
    symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
    execFileSync('cp', [
      '-a',
      path.join(repoRoot, 'packages/content/node_modules'),
      path.join(dir, 'packages/content/'),
    ]);
    execFileSync(
      'node',
      [
        path.join(dir, 'scripts/build.mjs'),
        '--quiet',
        path.join(dir, 'packages/errors'),
        path.join(dir, 'packages/content'),
      ],
      { stdio: 'inherit' },
    );
  }
  const { processHtml } = require(dist) as typeof Content;
  return { rev, commit, processHtml };
}
