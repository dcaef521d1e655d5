/**
 * Chromium for the dashboard tests and bench/dashboard.bench.ts. The bench imports it from here
 * because playwright-core is a dependency of the tests package only (not of the root).
 */
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--no-first-run',
];

/** The system Chromium (the same binary the renderer drives), headless. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}
