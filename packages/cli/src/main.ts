import { parseArgs } from 'node:util';
import { ConfigError } from '@wcs/config';
import { AccountsRepository, ApiKeysRepository, CreditsRepository, createDb } from '@wcs/db';
import { toServiceError } from '@wcs/errors';
import { accountsCommand } from './accounts.command';
import { loadCliEnv } from './cli-env';
import { UsageError } from './cli-errors';
import type { CommandGroup, Flags, Subcommand } from './command.types';
import { creditsCommand } from './credits.command';
import { keysCommand } from './keys.command';
import { USAGE } from './usage';

const GROUPS: CommandGroup[] = [accountsCommand, creditsCommand, keysCommand];
const str = { type: 'string' } as const;
/** Every flag any command takes; each command validates the ones it needs. */
const OPTIONS = {
  plan: str,
  credits: str,
  name: str,
  account: str,
  usd: str,
  reference: str,
  limit: str,
  key: str,
  month: str,
};

function resolve(argv: string[]): { run: Subcommand; flags: Flags } {
  let parsed: { values: Flags; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const [group, sub, ...rest] = parsed.positionals;
  if (rest.length > 0) throw new UsageError(`Unexpected argument: ${rest[0]}`);
  const run = GROUPS.find((g) => g.name === group)?.subcommands[sub ?? ''];
  if (!run)
    throw new UsageError(group ? `Unknown command: ${[group, sub].filter(Boolean).join(' ')}` : 'No command');
  return { run, flags: parsed.values };
}

/** Returns the exit code. Only the command's JSON goes to stdout. */
async function main(argv: string[]): Promise<number> {
  let command: ReturnType<typeof resolve>;
  try {
    command = resolve(argv);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  let db: ReturnType<typeof createDb> | undefined;
  try {
    const env = loadCliEnv();
    db = createDb(env.DATABASE_URL, { poolSize: 2, preparedStatements: env.DATABASE_PREPARED_STATEMENTS });
    const out = await command.run(command.flags, {
      accounts: new AccountsRepository(db),
      keys: new ApiKeysRepository(db),
      credits: new CreditsRepository(db),
      maxActiveKeysPerAccount: env.MAX_ACTIVE_KEYS_PER_ACCOUNT,
    });
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  } catch (err) {
    const e = err instanceof ConfigError ? err : toServiceError(err);
    const code = 'code' in e ? e.code : 'CONFIG';
    process.stderr.write(`${JSON.stringify({ error: e.message, code })}\n`);
    return 1;
  } finally {
    // Closing the pool is what lets the process exit promptly.
    await db?.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`${JSON.stringify({ error: String(err) })}\n`);
    process.exitCode = 1;
  },
);
