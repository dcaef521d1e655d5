// Builds dist/ (ESM, one file per source file) with tsc, then makes dist/main.js executable: it is
// the `service-mcp` bin, and tsc keeps the `#!/usr/bin/env node` line of src/main.ts.
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const outDir = path.join(root, 'dist');

rmSync(outDir, { recursive: true, force: true });
try {
  execFileSync(
    process.execPath,
    [
      tsc,
      '-p',
      path.join(root, 'tsconfig.json'),
      '--noEmit',
      'false',
      '--sourceMap',
      'false',
      '--outDir',
      outDir,
    ],
    { stdio: 'inherit' },
  );
} catch {
  process.exit(1); // tsc printed the errors
}

const bin = path.join(outDir, 'main.js');
if (!readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node')) {
  console.error(`${bin} lost its shebang line`);
  process.exit(1);
}
chmodSync(bin, 0o755);
