import type { ApiKeyInfo } from '@wcs/db';
import { ConflictError, NotFoundError } from '@wcs/errors';
import { Router } from 'express';
import type { keyCreateResponse, keyListResponse, keyRevokeResponse } from '../contract/account.responses';
import { keyCreateBody } from '../contract/keys.request';
import type { Body } from '../contract/responses';
import type { GatewayDeps } from '../deps';
import type { ApiKeyCache } from '../middleware/api-key-cache';
import { authOf } from '../middleware/auth.middleware';
import { parseBody } from '../validation/parse-body';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

function keyOut(k: ApiKeyInfo, currentKeyId: string) {
  return {
    id: k.keyId,
    prefix: k.prefix,
    name: k.name,
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: iso(k.lastUsedAt),
    revokedAt: iso(k.revokedAt),
    current: k.keyId === currentKeyId,
  };
}

/**
 * The account's own API keys: list (prefixes only), create (the full key returned once)
 * and revoke. Revoking ends the key's dashboard sessions; the last active key cannot be revoked, and
 * an account holds at most MAX_ACTIVE_KEYS_PER_ACCOUNT active keys (the rate limit counts them
 * together anyway; the cap keeps the key table and the key list bounded).
 */
export function keysRoutes(deps: GatewayDeps, keyCache?: ApiKeyCache): Router {
  const router = Router();

  router.get('/v1/keys', async (_req, res) => {
    const auth = authOf(res);
    const keys = await deps.apiKeys.list(auth.accountId);
    res.json({ success: true, data: keys.map((k) => keyOut(k, auth.keyId)) } satisfies Body<
      typeof keyListResponse
    >);
  });

  router.post('/v1/keys', async (req, res) => {
    const auth = authOf(res);
    const body = parseBody(keyCreateBody, req.body);
    const created = await deps.apiKeys.create(auth.accountId, {
      ...(body.name ? { name: body.name } : {}),
      maxActive: deps.settings.maxActiveKeysPerAccount,
    });
    res.status(201).json({
      success: true,
      data: {
        id: created.keyId,
        key: created.apiKey,
        prefix: created.prefix,
        name: created.name,
        createdAt: created.createdAt.toISOString(),
      },
    } satisfies Body<typeof keyCreateResponse>);
  });

  router.delete('/v1/keys/:id', async (req, res) => {
    const auth = authOf(res);
    const out = await deps.apiKeys.revokeOwned(auth.accountId, String(req.params.id));
    if (out === null) throw new NotFoundError('API key not found');
    if (out === 'last') {
      throw new ConflictError("This is the account's last active key: create another one before revoking it");
    }
    keyCache?.forget(out.keyId);
    await deps.sessions.closeForKey(out.keyId);
    res.json({
      success: true,
      data: { id: out.keyId, revokedAt: out.revokedAt.toISOString() },
    } satisfies Body<typeof keyRevokeResponse>);
  });

  return router;
}
