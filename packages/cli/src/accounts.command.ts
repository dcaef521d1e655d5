import { PLAN_IDS } from '@wcs/db';
import { NotFoundError } from '@wcs/errors';
import { z } from 'zod';
import type { CommandGroup } from './command.types';
import { parseFlags } from './parse-flags';

const createFlags = z.object({
  plan: z.enum(PLAN_IDS),
  credits: z.coerce.number().int().nonnegative().optional(),
  name: z.string().min(1).optional(),
});

const showFlags = z.object({ account: z.string().min(1) });

export const accountsCommand: CommandGroup = {
  name: 'accounts',
  subcommands: {
    /** New account with its plan's credits and a first API key (shown once). */
    async create(flags, { accounts, keys }) {
      const f = parseFlags(createFlags, flags);
      const account = await accounts.create({
        plan: f.plan,
        ...(f.credits === undefined ? {} : { credits: f.credits }),
        ...(f.name === undefined ? {} : { name: f.name }),
      });
      const key = await keys.create(account.accountId, { name: 'default' });
      return {
        ...account,
        name: f.name ?? null,
        apiKey: key.apiKey,
        keyId: key.keyId,
        keyPrefix: key.prefix,
      };
    },

    async show(flags, { accounts, keys }) {
      const f = parseFlags(showFlags, flags);
      const account = await accounts.get(f.account);
      if (!account) throw new NotFoundError(`Account not found: ${f.account}`);
      return { ...account, keys: await keys.list(account.accountId) };
    },
  },
};
