import 'reflect-metadata';
import { createSwitchboardApp } from './bootstrap';
import { loadConfig } from './config/switchboard-config';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createSwitchboardApp(config);
  await app.listen(config.port, config.host);
}

main().catch((error: unknown) => {
  // Start-up refusals (bad config, unusable database) end here: one readable line, exit code 1.
  process.stderr.write(`switchboard: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
