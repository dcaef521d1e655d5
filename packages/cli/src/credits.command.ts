import { PLANS } from '@wcs/db';
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

const monthlyFlags = z.object({
  month: z
    .string()
    .regex(/^\d{4}-\d{2}$/, 'must look like 2026-11')
    .default(() => new Date().toISOString().slice(0, 7)),
  account: z.string().min(1).optional(),
});

export const creditsCommand: CommandGroup = {
  name: 'credits',
  subcommands: {
    /** 100 credits per USD; prints `{ "balance": N }`. */
    async topup(flags, { credits }) {
      const f = parseFlags(topupFlags, flags);
      return credits.topupUsd(f.account, f.usd, f.reference);
    },

    /**
     * Grant every account its plan's monthly credits for `--month` (default: this month). Run it
     * from cron; it is idempotent (one 'monthly' ledger row per account and month), and credits
     * never expire, so unused credits carry over.
     */
    async 'grant-monthly'(flags, { accounts, credits }) {
      const f = parseFlags(monthlyFlags, flags);
      let granted = 0;
      let skipped = 0;
      const due = await accounts.dueForMonthlyGrant(f.month);
      for (const a of f.account ? due.filter((d) => d.accountId === f.account) : due) {
        const r = await credits.credit(a.accountId, PLANS[a.plan].monthlyCredits, {
          reason: 'monthly',
          reference: f.month,
        });
        if (r.applied) granted += 1;
        else skipped += 1;
      }
      return { month: f.month, granted, alreadyGranted: skipped };
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
