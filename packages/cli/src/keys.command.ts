import { NotFoundError } from '@wcs/errors';
import { z } from 'zod';
import type { CommandGroup } from './command.types';
import { parseFlags } from './parse-flags';

const createFlags = z.object({ account: z.string().min(1), name: z.string().min(1).optional() });
const revokeFlags = z.object({ key: z.string().min(1) });
const listFlags = z.object({ account: z.string().min(1) });

export const keysCommand: CommandGroup = {
  name: 'keys',
  subcommands: {
    /**
     * The plaintext key is printed once and never stored. The account's cap of active keys holds
     * here as in the API (an operator who needs more raises MAX_ACTIVE_KEYS_PER_ACCOUNT).
     */
    async create(flags, { keys, maxActiveKeysPerAccount }) {
      const f = parseFlags(createFlags, flags);
      return keys.create(f.account, {
        ...(f.name === undefined ? {} : { name: f.name }),
        maxActive: maxActiveKeysPerAccount,
      });
    },

    async revoke(flags, { keys }) {
      const f = parseFlags(revokeFlags, flags);
      if (!(await keys.revoke(f.key))) throw new NotFoundError(`No active key with id ${f.key}`);
      return { revoked: true };
    },

    async list(flags, { accounts, keys }) {
      const f = parseFlags(listFlags, flags);
      if (!(await accounts.get(f.account))) throw new NotFoundError(`Account not found: ${f.account}`);
      return { keys: await keys.list(f.account) };
    },
  },
};
