import { z } from 'zod';
import type { OperationSpec } from './openapi.document';

/** The PNG itself (OpenAPI 3.1: a binary string of the response's media type). */
export const screenshotResponse = z
  .string()
  .meta({ contentMediaType: 'image/png', description: 'PNG bytes' });

/**
 * OpenAPI entry of the screenshot endpoint: where `data.screenshot` (and the URLs of
 * `actions.screenshots`) point. Spread into OPERATIONS.
 */
export const SCREENSHOT_OPERATIONS: OperationSpec[] = [
  {
    method: 'get',
    path: '/v1/screenshots/:file.png',
    summary: 'A screenshot taken by a scrape, at the capability URL `data.screenshot` holds',
    description:
      'The URL comes from `data.screenshot` or `data.actions.screenshots` (also served without `.png`). Its last segment is a signed token: whoever holds the URL gets the PNG without an API key (an `<img>`, a chat message, a vision model), so share it like a password. Served until SCREENSHOT_TTL_HOURS (default 24) after the scrape, then deleted: `Cache-Control: private, max-age=<seconds left>`, `Referrer-Policy: no-referrer`. A malformed, altered, expired or another deployment’s token is the same 404 as an unknown one. URLs stored before capability URLs (`<uuid>.png`) are served by id under the owner’s key (Bearer or dashboard session; 401 without one).',
    params: {
      file: {
        in: 'path',
        description:
          'the capability token (74 characters, base64url), or a screenshot id (uuid, needs the owner’s key)',
      },
    },
    success: { status: 200, description: 'the PNG', schema: screenshotResponse, contentType: 'image/png' },
    errors: [401, 404, 429],
    auth: 'optional',
  },
];
