import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Absolute paths so the build works whatever directory vite is started from.
const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: `${here}web`,
  base: '/dashboard/',
  publicDir: false,
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: `${here}dist/web`,
    emptyOutDir: true,
    assetsDir: 'assets',
    // The polyfill would be an inline script in index.html under some setups; browsers we target
    // support modulepreload, and CSP forbids inline scripts anyway.
    modulePreload: { polyfill: false },
    // Small assets are inlined as data: URLs by default; keep every asset a file (CSP-friendly, cacheable).
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
  },
});
