import type { AccountsRepository, ApiKeysRepository, CreditsRepository } from '@wcs/db';

export interface CommandContext {
  accounts: AccountsRepository;
  keys: ApiKeysRepository;
  credits: CreditsRepository;
  /** MAX_ACTIVE_KEYS_PER_ACCOUNT, as the gateway reads it. */
  maxActiveKeysPerAccount: number;
}

/** Flags as parsed by node:util parseArgs (all string-typed); each command validates its own with zod. */
export type Flags = Record<string, string | boolean | undefined>;

/** A subcommand returns the one JSON value printed on stdout. */
export type Subcommand = (flags: Flags, ctx: CommandContext) => Promise<unknown>;

export interface CommandGroup {
  name: string;
  subcommands: Record<string, Subcommand>;
}
