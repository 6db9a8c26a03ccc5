/**
 * Switchboard as bench:team-turn runs it: the production app in a process of its own (the bench's
 * model server, webhook and SDK peer do not share its event loop), spawning the real Copilot CLI.
 * Configured from the environment like the service; prints `LISTENING <port>` when ready. Over the
 * IPC channel the bench asks `usage` (the process's own CPU time and memory) or `usage-after-gc`
 * (the same after a full GC, when the process runs with --expose-gc).
 */
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { createSwitchboardApp } from '../src/bootstrap';
import { loadConfig } from '../src/config/switchboard-config';

export interface ServiceUsage {
  cpuMicros: number;
  rssBytes: number;
  heapUsedBytes: number;
  gcRan: boolean;
}

function usage(withGc: boolean): ServiceUsage {
  // A full GC only for a memory figure: its own CPU would count in a CPU one.
  const collect = withGc ? (globalThis as { gc?: () => void }).gc : undefined;
  collect?.();
  const cpu = process.cpuUsage();
  const memory = process.memoryUsage();
  return { cpuMicros: cpu.user + cpu.system, rssBytes: memory.rss, heapUsedBytes: memory.heapUsed, gcRan: collect !== undefined };
}

async function main(): Promise<void> {
  const app = await createSwitchboardApp({ ...loadConfig(), port: 0, host: '127.0.0.1' });
  await app.listen(0, '127.0.0.1');
  process.on('message', (message) => {
    if (message === 'usage' || message === 'usage-after-gc') process.send?.({ usage: usage(message === 'usage-after-gc') });
  });
  process.stdout.write(`LISTENING ${(app.getHttpServer().address() as AddressInfo).port}\n`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

main().catch((error: unknown) => {
  process.stderr.write(`team-turn-service: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
