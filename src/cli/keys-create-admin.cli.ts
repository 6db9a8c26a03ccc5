import 'reflect-metadata';
import { openMaintenanceApp, runCommandWithUsage, UsageError } from './maintenance-command';

const USAGE = `usage: npm run keys:create-admin -- [--name <name>]
Creates a new admin API key in the database of SWITCHBOARD_DB (or SWITCHBOARD_DATABASE_URL) and prints
it, once: the way back in for an operator locked out of the console (a lost key, a key of the wrong
role), without a restart. A running service takes the key at its next request. Only someone who can
run commands as the service's user on its host (or reach its database) can do this, which is no more
than they could do already. The key is recorded as created by cli:keys-create-admin.
Exit codes: 0 created, 1 failed, 2 usage error.
`;

function nameOf(argv: string[]): string {
  if (argv.length === 0) return `recovery admin ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`;
  if (argv[0] !== '--name') throw new UsageError(`unknown argument ${argv[0]}`);
  const name = argv[1]?.trim();
  if (!name || argv.length > 2) throw new UsageError('--name takes one non-empty name');
  if (name.length > 100) throw new UsageError('the name is at most 100 characters');
  return name;
}

async function main(name: string): Promise<number> {
  // Nest and the modules load only now: a usage error answers at once and opens nothing.
  const { CommandBus } = await import('@nestjs/cqrs');
  const { CreateApiKey } = await import('../identity');
  const { app, config } = await openMaintenanceApp();
  try {
    // The same command as POST /api/keys, through the key's decider: an api_key.created event like any other.
    const { key, apiKey } = await app
      .get(CommandBus)
      .execute(new CreateApiKey({ name, role: 'admin' }, { kind: 'operator', id: 'cli:keys-create-admin' }));
    const where = config.postgres ? 'the PostgreSQL database' : config.database.file;
    process.stdout.write(
      `created the admin API key "${apiKey.name}" (${apiKey.prefix}…) in ${where}; it is shown this once:\n${key}\n` +
        'Paste it in the console (API token), or send it as Authorization: Bearer <key>.\n',
    );
    return 0;
  } finally {
    await app.close();
  }
}

runCommandWithUsage('keys:create-admin', USAGE, nameOf, main);
