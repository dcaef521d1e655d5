import { NotFoundError } from '@wcs/errors';
import { z } from 'zod';
import type { CommandGroup } from './command.types';
import { parseFlags } from './parse-flags';

const topupFlags = z.object({
  account: z.string().min(1),
  usd: z.coerce.number().positive().max(1_000_000),
  reference: z.string().min(1).optional(),
});

const ledgerFlags = z.object({
  account: z.string().min(1),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const creditsCommand: CommandGroup = {
  name: 'credits',
  subcommands: {
    /** 100 credits per USD; prints `{ "balance": N }`. */
    async topup(flags, { credits }) {
      const f = parseFlags(topupFlags, flags);
      return credits.topupUsd(f.account, f.usd, f.reference);
    },

    /** Newest entries first. */
    async ledger(flags, { accounts, credits }) {
      const f = parseFlags(ledgerFlags, flags);
      const account = await accounts.get(f.account);
      if (!account) throw new NotFoundError(`Account not found: ${f.account}`);
      return {
        accountId: account.accountId,
        balance: account.balance,
        entries: await credits.ledger(f.account, f.limit),
      };
    },
  },
};
