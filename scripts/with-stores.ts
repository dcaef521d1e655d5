/**
 * Resolve PostgreSQL and Redis (scripts/stores.ts), apply migrations, then run a command with
 * DATABASE_URL and REDIS_URL set; stops whatever it started when the command ends.
 *
 *   tsx scripts/with-stores.ts [--db-name wcs] [--write-env-file] -- <command> [args…]
 *   node scripts/dist/with-stores.js [--write-env-file] --print-env
 *
 * `--print-env` (the supervisor's way in): print `{"DATABASE_URL":…,"REDIS_URL":…}` as one line on
 * stdout, then exit — or, when a store had to be started here, keep it running until SIGTERM/SIGINT
 * or stdin closes. So the supervisor never loads the config and database modules this needs.
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { prepareStores, type Stores } from './stores';

function keepUntilStopped(stores: Stores): void {
  const stop = async () => {
    await stores.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.stdin.once('end', stop).resume();
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      'db-name': { type: 'string', default: 'wcs' },
      'write-env-file': { type: 'boolean', default: false },
      'print-env': { type: 'boolean', default: false },
    },
  });
  if (positionals.length === 0 && !values['print-env']) {
    console.error(
      '[stores] usage: with-stores.ts [--db-name NAME] [--write-env-file] (--print-env | -- <command…>)',
    );
    process.exit(1);
  }
  const stores = await prepareStores({
    dbName: values['db-name'] ?? 'wcs',
    writeEnvFile: values['write-env-file'],
  });
  if (values['print-env']) {
    process.stdout.write(
      `${JSON.stringify({ DATABASE_URL: stores.databaseUrl, REDIS_URL: stores.redisUrl })}\n`,
    );
    if (stores.startedAny) keepUntilStopped(stores);
    return;
  }
  const childEnv = { ...process.env, DATABASE_URL: stores.databaseUrl, REDIS_URL: stores.redisUrl };
  const [cmd, ...args] = positionals as [string, ...string[]];
  const child = spawn(cmd, args, { cwd: process.cwd(), env: childEnv, stdio: 'inherit' });
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', async (code, signal) => {
    await stores.stop();
    process.exit(code ?? (signal ? 130 : 1));
  });
}

main().catch((err: unknown) => {
  console.error(`[stores] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
