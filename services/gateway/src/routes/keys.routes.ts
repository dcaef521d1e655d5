import { type ApiKeyInfo, keyBudgetResets } from '@wcs/db';
import { ConflictError, ForbiddenError, NotFoundError } from '@wcs/errors';
import { Router } from 'express';
import type {
  keyCreateResponse,
  keyListResponse,
  keyRevokeResponse,
  keyUpdateResponse,
} from '../contract/account.responses';
import { keyCreateBody, keyUpdateBody } from '../contract/keys.request';
import type { Body } from '../contract/responses';
import type { AuthContext, GatewayDeps } from '../deps';
import type { ApiKeyCache } from '../middleware/api-key-cache';
import { authOf } from '../middleware/auth.middleware';
import { parseBody } from '../validation/parse-body';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

function keyOut(k: ApiKeyInfo, currentKeyId: string, resets = keyBudgetResets()) {
  return {
    id: k.keyId,
    prefix: k.prefix,
    name: k.name,
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: iso(k.lastUsedAt),
    revokedAt: iso(k.revokedAt),
    current: k.keyId === currentKeyId,
    dailyCreditLimit: k.dailyCreditLimit,
    monthlyCreditLimit: k.monthlyCreditLimit,
    spentToday: k.spentToday,
    spentThisMonth: k.spentThisMonth,
    dayResetsAt: resets.day.toISOString(),
    monthResetsAt: resets.month.toISOString(),
  };
}

/**
 * A key with a limit is someone's capped spend (an agent, an MCP session, a colleague): it may not
 * lift its own cap, by changing limits or by creating an uncapped key. 403 FORBIDDEN.
 */
async function assertUncapped(deps: GatewayDeps, auth: AuthContext, what: string): Promise<void> {
  const own = await deps.apiKeys.getOwned(auth.accountId, auth.keyId);
  if (own && (own.dailyCreditLimit !== null || own.monthlyCreditLimit !== null)) {
    throw new ForbiddenError(`A key with a credit limit cannot ${what}: use a key without limits`);
  }
}

/**
 * The account's own API keys: list (prefixes only, with limits and spend), create (the full key
 * returned once), change (name, daily and monthly credit limits) and revoke. Revoking ends the key's dashboard sessions; the last active key cannot be revoked, and
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
    await assertUncapped(deps, auth, 'create keys');
    const created = await deps.apiKeys.create(auth.accountId, {
      ...(body.name ? { name: body.name } : {}),
      dailyCreditLimit: body.dailyCreditLimit ?? null,
      monthlyCreditLimit: body.monthlyCreditLimit ?? null,
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
        dailyCreditLimit: created.dailyCreditLimit,
        monthlyCreditLimit: created.monthlyCreditLimit,
      },
    } satisfies Body<typeof keyCreateResponse>);
  });

  // Name and limits; a revoked key's too (harmless, and its history keeps the last values).
  router.patch('/v1/keys/:id', async (req, res) => {
    const auth = authOf(res);
    const body = parseBody(keyUpdateBody, req.body);
    if (body.dailyCreditLimit !== undefined || body.monthlyCreditLimit !== undefined) {
      await assertUncapped(deps, auth, 'change credit limits');
    }
    const updated = await deps.apiKeys.updateOwned(auth.accountId, String(req.params.id), body);
    if (!updated) throw new NotFoundError('API key not found');
    res.json({ success: true, data: keyOut(updated, auth.keyId) } satisfies Body<typeof keyUpdateResponse>);
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
