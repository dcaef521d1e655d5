// Prisma's query compiler is WebAssembly that its generated client imports as a 2.6 MB base64
// string literal (`query_compiler_bg.postgresql.wasm-base64.js`). Bundled, that literal was a
// quarter of the one-process bundle: read, copied into a string and held with the bundle's source
// for the process's life, then parsed into a second copy and decoded at the first query. The
// bundle instead reads the binary (1.9 MB) from a file the build writes beside it, once, when the
// client first asks for its compiler. The multi-process services load the generated client as
// Prisma generates it.

import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const BASE64_MODULE = '@prisma/client/runtime/query_compiler_bg.postgresql.wasm-base64.js';
/** The file the bundle reads, beside it. */
const PRISMA_WASM_FILE = 'query_compiler_bg.postgresql.wasm';

/** The generated client's loader of the compiler (packages/db/dist/generated/prisma/internal/class.js). */
const CLIENT_CLASS = /[\\/]generated[\\/]prisma[\\/]internal[\\/]class\.js$/;
const IMPORT_TEXT = `const { wasm } = await import("${BASE64_MODULE}");`;
const DECODE_TEXT = 'return await decodeBase64AsWasm(wasm);';

/**
 * `text` of the module at `file`, its compiler read from `outDir` when it is the generated client
 * class (the path is relative to the module's own directory: bundle-entry.mjs makes `__dirname`
 * that of the module's file). Throws when the generated text no longer matches, so a Prisma update
 * fails the build instead of silently bundling the literal again.
 */
export function prismaWasmFromFile(file, text, outDir) {
  if (!CLIENT_CLASS.test(file)) return text;
  if (!text.includes(IMPORT_TEXT) || !text.includes(DECODE_TEXT)) {
    throw new Error(`[bundle] Prisma's compiler loader changed: "${IMPORT_TEXT}" not found in ${file}`);
  }
  const rel = JSON.stringify(path.relative(path.dirname(file), path.join(outDir, PRISMA_WASM_FILE)));
  return text
    .replace(IMPORT_TEXT, '')
    .replace(
      DECODE_TEXT,
      `return new WebAssembly.Module(require("node:fs").readFileSync(require("node:path").join(__dirname, ${rel})));`,
    );
}

/**
 * Writes the compiler's binary beside the bundle (decoded from the base64 module the generated
 * client would have imported) when one of the bundle's `inputs` (paths from the working directory)
 * is the generated client class.
 */
export function writePrismaWasm(inputs, outDir) {
  const client = inputs.find((file) => CLIENT_CLASS.test(file));
  if (!client) return;
  const { wasm } = createRequire(path.resolve(client))(BASE64_MODULE);
  writeFileSync(path.join(outDir, PRISMA_WASM_FILE), Buffer.from(wasm, 'base64'));
}
