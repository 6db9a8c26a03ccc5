import { strToU8, zipSync } from 'fflate';
import { request } from '../api/client';
import { AgentFilesQuery } from './operations';

/** The picked files as the import sends them, all together: the service imports nothing when one is bad. */
export function readAgentFiles(files: readonly File[]): Promise<Array<{ name: string; content: string }>> {
  return Promise.all(files.map(async (file) => ({ name: file.name, content: await file.text() })));
}

/** The library as a zip of <id>.json files, the format `agents:import` and Import read back. */
export async function downloadLibrary(): Promise<number> {
  const { agentFiles } = await request(AgentFilesQuery);
  const zip = zipSync(Object.fromEntries(agentFiles.map((file) => [file.name, strToU8(file.content)])));
  const url = URL.createObjectURL(new Blob([zip], { type: 'application/zip' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `switchboard-agents-${new Date().toISOString().slice(0, 10)}.zip`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return agentFiles.length;
}
