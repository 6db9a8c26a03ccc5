import 'reflect-metadata';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { folderArgument, openMaintenanceApp, runCommandWithUsage, UsageError } from './maintenance-command';

const USAGE = `usage: npm run agents:export -- <folder>
Writes every agent of the library in SWITCHBOARD_DB to <folder>/<id>.json (created when missing),
in the agent JSON format with a stable key order, so the folder can be kept in git and imported
with agents:import. Files of the same name are replaced; other files are left alone.
Exit codes: 0 exported, 1 failed, 2 usage error.
`;

function folderOf(argv: string[]): string {
  const folder = folderArgument(argv);
  if (fs.existsSync(folder) && !fs.statSync(folder).isDirectory()) throw new UsageError(`${folder} is not a folder`);
  return folder;
}

/** Write-then-rename: a reader (or git) never sees half a file. */
function writeFileAtomically(file: string, content: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, content, 'utf8');
  fs.renameSync(temporary, file);
}

async function main(folder: string): Promise<number> {
  // Nest and the modules load only now: a usage error answers at once and opens nothing.
  const { QueryBus } = await import('@nestjs/cqrs');
  const { ExportAgents } = await import('../agents');
  const { app, config } = await openMaintenanceApp();
  try {
    const { files } = await app.get(QueryBus).execute(new ExportAgents());
    fs.mkdirSync(folder, { recursive: true });
    for (const file of files) writeFileAtomically(path.join(folder, file.name), file.content);
    process.stdout.write(`exported ${files.length} agent${files.length === 1 ? '' : 's'} from ${config.database.file} to ${folder}\n`);
    for (const file of files) process.stdout.write(`  ${path.join(folder, file.name)}\n`);
    const written = new Set(files.map((f) => f.name));
    for (const other of fs
      .readdirSync(folder)
      .filter((name) => name.endsWith('.json') && !written.has(name))
      .sort()) {
      process.stderr.write(`agents:export: ${path.join(folder, other)} is not an agent of this library; left as it is\n`);
    }
    return 0;
  } finally {
    await app.close();
  }
}

runCommandWithUsage('agents:export', USAGE, folderOf, main);
