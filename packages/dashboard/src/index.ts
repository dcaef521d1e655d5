import { existsSync } from 'node:fs';
import path from 'node:path';

/** Where `vite build` writes the page (index.html + assets/; dist/ beside it holds the compiled Node side); the gateway serves it at /dashboard. */
export const DASHBOARD_DIST_DIR: string = path.resolve(__dirname, '..', 'dist', 'web');

/** True once the page has been built (`pnpm --filter @wcs/dashboard run build`). */
export function dashboardBuilt(): boolean {
  return existsSync(path.join(DASHBOARD_DIST_DIR, 'index.html'));
}
