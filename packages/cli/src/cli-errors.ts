/** Wrong command line shape (unknown command or flag): usage goes to stderr, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
