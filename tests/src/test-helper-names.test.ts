import { repoFiles } from './repo-files';

/**
 * One naming habit for test helpers (tests/README.md): in a package's `src/test-support/` with a
 * plain descriptive name, or beside the tests in `tests/` named by what they hold — never a role
 * suffix such as `.testkit.ts` or `.fixture.ts`, which once marked them and now would only split
 * the habit in two. (Fixture servers shared across packages are packages/testing's, by name.)
 */
const ROLE_SUFFIX = /\.(?:testkit|fixture|fixtures)\.ts$/;

describe('test helper names', () => {
  it('recognises the old role suffixes, and leaves plain names alone', () => {
    const flagged = [
      'packages/content/src/test-support/article-page.testkit.ts',
      'packages/content/src/test-support/knot-guide.fixture.ts',
      'tests/src/crawl.fixtures.ts',
    ];
    const plain = [
      'packages/content/src/test-support/article-page.ts',
      'packages/db/src/test-support/test-database.ts',
      'packages/testing/src/s3-fixture.ts',
      'tests/src/dashboard/dashboard-helpers.ts',
    ];
    expect(flagged.filter((f) => !ROLE_SUFFIX.test(f))).toEqual([]);
    expect(plain.filter((f) => ROLE_SUFFIX.test(f))).toEqual([]);
  });

  it('no file of the repository carries a .testkit.ts / .fixture.ts suffix', () => {
    expect(repoFiles().filter((f) => ROLE_SUFFIX.test(f))).toEqual([]);
  });
});
