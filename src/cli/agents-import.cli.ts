import 'reflect-metadata';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { folderArgument, openMaintenanceApp, runCommandWithUsage, UsageError } from './maintenance-command';
import type { AgentFile, ImportAgentsResult } from '../agents';

const USAGE = `usage: npm run agents:import -- <folder>
Imports every *.json agent file of <folder> (not its subfolders) into the agent library of
SWITCHBOARD_DB, all together or none at all: a file that does not parse, or a sub-agent that is
unknown or cannot be one, refuses the whole import and is printed as file:line: message.
Exit codes: 0 imported, 1 refused (nothing imported), 2 usage error.
`;

/** The folder's agent files, read before the database is opened (a wrong folder touches nothing). */
function readFolder(argv: string[]): { folder: string; files: AgentFile[] } {
  const folder = folderArgument(argv);
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(folder, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`${folder} does not exist`);
    if (code === 'ENOTDIR') throw new UsageError(`${folder} is not a folder`);
    throw error;
  }
  const names = entries
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => e.name)
    .sort();
  if (names.length === 0) throw new UsageError(`${folder} has no *.json agent files`);
  // A byte-order mark (some Windows editors write one) is not part of the JSON.
  const files = names.map((name) => ({ name, content: fs.readFileSync(path.join(folder, name), 'utf8').replace(/^\uFEFF/, '') }));
  return { folder, files };
}

async function main({ folder, files }: ReturnType<typeof readFolder>): Promise<number> {
  // Nest and the modules load only now: a usage error answers at once and opens nothing.
  const { CommandBus } = await import('@nestjs/cqrs');
  const { AgentImportRejectedError } = await import('../agents');
  const { ImportAgents } = await import('../agents');
  const { app, config } = await openMaintenanceApp();
  try {
    let result: ImportAgentsResult;
    try {
      result = await app.get(CommandBus).execute(new ImportAgents(files, 'cli:agents-import'));
    } catch (error) {
      if (!(error instanceof AgentImportRejectedError)) throw error;
      for (const p of error.problems) {
        // One problem, one line, whatever the message holds.
        process.stderr.write(`${path.join(folder, p.file)}${p.line ? `:${p.line}` : ''}: ${p.message.replace(/\s*\n\s*/g, ' ')}\n`);
      }
      process.stderr.write(
        `agents:import: nothing was imported from ${folder} (${error.problems.length} problem${error.problems.length === 1 ? '' : 's'})\n`,
      );
      return 1;
    }
    process.stdout.write(
      `imported ${files.length} agent file${files.length === 1 ? '' : 's'} from ${folder} into ${config.database.file}: ` +
        `${result.created.length} created, ${result.updated.length} updated, ${result.unchanged.length} unchanged\n`,
    );
    for (const [label, ids] of Object.entries(result)) for (const id of ids as string[]) process.stdout.write(`  ${label} ${id}\n`);
    return 0;
  } finally {
    await app.close();
  }
}

runCommandWithUsage('agents:import', USAGE, readFolder, main);
