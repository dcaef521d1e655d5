export const USAGE = `Usage: pnpm --silent cli <command> [flags]

  accounts create --plan <free|hobby|pro|scale|enterprise> [--credits N] [--name X]
  accounts show   --account <accountId>
  credits topup   --account <accountId> --usd <n> [--reference R]   (100 credits per USD)
  credits ledger  --account <accountId> [--limit N]
  credits grant-monthly [--month YYYY-MM] [--account ID]   (idempotent; run monthly from cron)
  keys create     --account <accountId> [--name X]
  keys revoke     --key <keyId>
  keys list       --account <accountId>

Prints one JSON value on stdout. Errors: {"error": "..."} on stderr, exit 1; bad usage: exit 2.
DATABASE_URL comes from the environment, else from the repository's .env.local.`;
