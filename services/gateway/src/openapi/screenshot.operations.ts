import { z } from 'zod';
import type { OperationSpec } from './openapi.document';

/** The PNG itself (OpenAPI 3.1: a binary string of the response's media type). */
export const screenshotResponse = z
  .string()
  .meta({ contentMediaType: 'image/png', description: 'PNG bytes' });

/**
 * OpenAPI entry of the screenshot endpoint (issue 14): where `data.screenshot` (and the URLs of
 * `actions.screenshots`) point. Spread into OPERATIONS.
 */
export const SCREENSHOT_OPERATIONS: OperationSpec[] = [
  {
    method: 'get',
    path: '/v1/screenshots/:id.png',
    summary: 'A screenshot taken by a scrape, under the key of the account that took it',
    description:
      'The URL comes from `data.screenshot` (also served without `.png`). Authenticated like every /v1 call (Bearer key, or the dashboard session cookie). Served until SCREENSHOT_TTL_HOURS (default 24) after the scrape, then deleted: `Cache-Control: private, max-age=<seconds left>`. Unknown, expired and other accounts’ ids are the same 404.',
    params: { id: { in: 'path', description: 'screenshot id (uuid)' } },
    success: { status: 200, description: 'the PNG', schema: screenshotResponse, contentType: 'image/png' },
    errors: [401, 404, 429],
  },
];
