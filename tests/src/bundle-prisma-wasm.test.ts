/**
 * A service's bundle reads Prisma's query compiler from the binary file the build writes
 * beside it (scripts/bundle-prisma-wasm.mjs), not from the 2.6 MB base64 module the generated
 * client imports: that literal was a quarter of the bundle, held with its source for the process's
 * life. run-command-one-process.e2e.test.ts runs the bundle's queries; this checks what was built.
 * Needs the build (scripts/test.sh runs it first).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compiledService, ONE_PROCESS, SERVICE_PROCESSES, type ServiceProcessName } from '@wcs/runtime';

const distOf = (service: ServiceProcessName) => path.join(compiledService(service).cwd, 'dist');
/** The bundles whose build took in Prisma's query compiler (the extract worker queries with pg alone). */
const WITH_PRISMA = SERVICE_PROCESSES.filter((service) =>
  (
    JSON.parse(readFileSync(path.join(distOf(service), 'main.bundle.js.inputs.json'), 'utf8')) as string[]
  ).some((file) => file.includes('/@prisma/client/runtime/query_compiler_bg.')),
);

it('the list is the bundles’ own: the one-process bundle took the compiler in', () => {
  expect(WITH_PRISMA).toContain(ONE_PROCESS);
});

it.each(WITH_PRISMA)(
  'the %s bundle holds no base64 copy of the compiler, and the file beside it is WebAssembly',
  (service) => {
    const dist = distOf(service);
    const bundle = readFileSync(path.join(dist, 'main.bundle.js'), 'latin1');
    expect(bundle).not.toContain('wasm-base64');
    expect(bundle).toContain('query_compiler_bg.postgresql.wasm');
    // WebAssembly's magic number and version 1 (the e2e run compiles it).
    const wasm = readFileSync(path.join(dist, 'query_compiler_bg.postgresql.wasm'));
    expect([...wasm.subarray(0, 8)]).toEqual([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
    expect(wasm.length).toBeGreaterThan(1_000_000);
  },
);
