import { serviceMain } from '@wcs/runtime';
import { oneProcessService } from './service';

/** Called by dist/main.js, the loader of this file's bundle; run directly, it starts at once. */
export const main = serviceMain(module, oneProcessService);
