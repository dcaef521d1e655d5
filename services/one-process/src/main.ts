import { runService } from '@wcs/runtime';
import { oneProcessService } from './service';

/**
 * Starts the one-process mode. Its dist/main.js is the bundle's loader (scripts/bundle-entry.mjs),
 * which loads the bundle with V8's code cache and then calls this; the bundle itself runs nothing
 * on load, so the build can load it to write that cache.
 */
export function main(): void {
  runService(oneProcessService);
}

// Run directly (unbundled, `tsx src/main.ts`): start as any service's main.ts does.
if (require.main === module) main();
