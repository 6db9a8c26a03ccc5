import 'reflect-metadata';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCommandWithUsage, UsageError } from './maintenance-command';

const USAGE = `usage: npm run store:copy-to-postgres -- <postgres-url> [--from <sqlite-file>] [--resume]
Copies the SQLite event log (SWITCHBOARD_DB, or --from) into the PostgreSQL database at <postgres-url>
(migrated first): every event with its id, stream position, data, metadata, recorded_at and global
position, and the stream versions, 1,000 events per transaction; then rebuilds the PostgreSQL read
models. The target log must be empty; --resume continues a copy that stopped, when the target is a
prefix of the source. Stop the service first: events appended meanwhile are copied only if they
arrive before the copy ends. Progress goes to stderr.
Exit codes: 0 copied, 1 refused or failed, 2 usage error.
`;

interface Arguments {
  url: string;
  from?: string;
  resume: boolean;
}

function parseArguments(argv: string[]): Arguments {
  let from: string | undefined;
  let resume = false;
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--resume') resume = true;
    else if (arg === '--from') {
      from = argv[++i];
      if (from === undefined || from.startsWith('-')) throw new UsageError('--from needs a file');
    } else if (arg.startsWith('--from=')) from = arg.slice('--from='.length);
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
    else positional.push(arg);
  }
  if (positional.length !== 1)
    throw new UsageError(positional.length === 0 ? 'which PostgreSQL database (postgres://...)?' : 'give exactly one database URL');
  if (!/^postgres(ql)?:\/\//.test(positional[0])) throw new UsageError(`${positional[0]} is not a postgres:// URL`);
  return { url: positional[0], from, resume };
}

/** The URL without its password, for what the command prints. */
function shown(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

async function main(args: Arguments): Promise<number> {
  // The stores load only now: a usage error answers at once and opens nothing.
  const { loadConfig } = await import('../config');
  const { openSqliteConnection } = await import('../database');
  const { SqliteDatabase } = await import('../database');
  const { SqliteEventStore } = await import('../event-store');
  const { ProjectionRegistry } = await import('../projections');
  const { InlineProjections } = await import('../projections');
  const { PostgresEventStore } = await import('../event-store');
  const { copyLog, CopyRefusedError } = await import('../event-store');
  const { rebuildReadModels } = await import('../projections');
  const { NestFactory } = await import('@nestjs/core');
  const { MaintenanceModule } = await import('./maintenance.module');
  const { progressPrinter } = await import('./copy-progress');
  // The stores' and the runner's Nest logs would interleave with the progress; failures come back as errors.
  const { Logger } = await import('@nestjs/common');
  Logger.overrideLogger(false);

  const database = args.from === undefined ? loadConfig().database : { ...loadConfig().database, file: args.from };
  const file = path.resolve(database.file);
  // Opening a missing file would create an empty database: a typo must not copy "nothing" successfully.
  if (!fs.existsSync(file)) {
    process.stderr.write(`store:copy-to-postgres: ${file} does not exist; give the SQLite file with --from <file> or SWITCHBOARD_DB\n`);
    return 1;
  }
  const connection = openSqliteConnection({ ...database, file });
  // Read only: no migrations and no projections on the source, which the copy never writes.
  const source = new SqliteEventStore(new SqliteDatabase(connection, file), new InlineProjections(new ProjectionRegistry()));
  const target = new PostgresEventStore({ connectionString: args.url, poolSize: 2 });
  try {
    await target.migrate();
    const progress = progressPrinter(process.stderr, 'copying');
    let result;
    try {
      result = await copyLog(source, target, { resume: args.resume, onProgress: ({ copied, total }) => progress.update(copied, total) });
    } catch (error) {
      progress.stop();
      if (!(error instanceof CopyRefusedError)) throw error;
      process.stderr.write(`store:copy-to-postgres: ${error.message}\n`);
      return 1;
    }
    progress.stop();
    const resumed = result.skipped > 0 ? ` after the ${result.skipped.toLocaleString('en-US')} already there` : '';
    process.stdout.write(
      `copied ${result.copied.toLocaleString('en-US')} events from ${file} to ${shown(args.url)}${resumed}, up to position ${result.head}\n`,
    );
    // Every read model of the app, as its maintenance module registers them, on the target database.
    const config = { ...loadConfig(), logLevel: 'warn', postgres: { url: args.url, poolSize: 2 } };
    const app = await NestFactory.createApplicationContext(MaintenanceModule.forRoot(config), { logger: false, abortOnError: false });
    try {
      for (const rebuilt of await rebuildReadModels(app.get(PostgresEventStore), app.get(ProjectionRegistry))) {
        process.stdout.write(`rebuilt ${rebuilt.projection} (${rebuilt.tables.join(', ')}): replayed up to position ${rebuilt.position}\n`);
      }
    } finally {
      await app.close();
    }
    return 0;
  } finally {
    await target.close();
    connection.close();
  }
}

runCommandWithUsage('store:copy-to-postgres', USAGE, parseArguments, main);
