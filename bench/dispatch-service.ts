/**
 * Switchboard as bench:dispatch runs it: the production app in a process of its own (so the load
 * generator, the fake CLI and the webhook server do not share its event loop), plus one bench-only
 * built-in tool that answers at once. Configured from the environment like the service; prints
 * `LISTENING <port>` when ready.
 */
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { createSwitchboardApp } from '../src/bootstrap';
import { loadConfig } from '../src/config/switchboard-config';
import { BuiltinToolCatalog } from '../src/sessions/builtin-tool-catalog';

async function main(): Promise<void> {
  const app = await createSwitchboardApp({ ...loadConfig(), port: 0, host: '127.0.0.1' });
  app.get(BuiltinToolCatalog).register('bench_noop', async () => ({ textResultForLlm: 'ok', resultType: 'success' }));
  await app.listen(0, '127.0.0.1');
  process.stdout.write(`LISTENING ${(app.getHttpServer().address() as AddressInfo).port}\n`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

main().catch((error: unknown) => {
  process.stderr.write(`dispatch-service: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
