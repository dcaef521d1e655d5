/**
 * Test probe for main.test.ts, loaded with `--import` after tsx: counts the pg pools the CLI ends
 * and writes the count to stderr as the process exits. A pool left open keeps the process alive
 * until its idle timeout (10 s); ending it is what lets the CLI exit as soon as it has answered.
 */
import { writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

interface PoolClass {
  prototype: { end(this: unknown, ...args: unknown[]): unknown };
}

// The pg that @wcs/db loads (the CLI's working directory is packages/cli).
const pg = createRequire(path.resolve('../db/package.json'))('pg') as { Pool: PoolClass };
const end = pg.Pool.prototype.end;
let ended = 0;
pg.Pool.prototype.end = function (this: unknown, ...args: unknown[]) {
  ended++;
  return end.apply(this, args);
};
process.on('exit', () => writeSync(2, `pool-end-probe ended=${ended}\n`));
