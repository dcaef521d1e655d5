import { z } from 'zod';
import { envInt as int } from './schemas';

/** API keys of an account: read by the gateway (POST /v1/keys) and the admin CLI (`keys create`). */
export const apiKeysEnv = z.object({
  /** Active (unrevoked) keys an account may hold; creating one more is 409 CONFLICT. */
  MAX_ACTIVE_KEYS_PER_ACCOUNT: int(10, 1).describe(
    'active API keys per account (gateway and CLI); one more is 409',
  ),
});
