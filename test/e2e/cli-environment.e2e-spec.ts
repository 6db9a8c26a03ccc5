import * as fs from 'node:fs';
import { loadConfig } from '../../src/config/switchboard-config';
import { CopilotCliConnection } from '../../src/copilot-cli/copilot-cli-connection';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';

/** The service's secrets, as an operator's environment holds them. */
const SECRETS: Record<string, string> = {
  SWITCHBOARD_API_TOKEN: 'env-api-token-0123456789',
  SWITCHBOARD_WEBHOOK_SECRET: 'env-webhook-secret',
  SWITCHBOARD_METRICS_TOKEN: 'env-metrics-token',
  COPILOT_PROVIDER_API_KEY: 'sk-env-provider-key',
  AWS_SECRET_ACCESS_KEY: 'env-aws-secret',
};

function environOf(pid: number): Map<string, string> {
  const entries = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return new Map(entries.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
}

/** issue 10 §1: the real CLI, spawned by the service, is given a minimal environment, never the service's secrets. */
describe('the Copilot CLI child environment (/proc/<pid>/environ)', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  const saved = new Map<string, string | undefined>();

  beforeAll(async () => {
    for (const [name, value] of Object.entries({ ...SECRETS, ACME_TOOL_MODE: 'passed-through' })) {
      saved.set(name, process.env[name]);
      process.env[name] = value;
    }
    await model.start();
    running = await startRealCliApp(model, { security: { ...loadConfig({}).security, cliEnvPassthrough: ['ACME_*'] } });
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('has PATH, the isolated HOME and the passthrough names, and none of the secrets', async () => {
    expect((await running.http('POST', '/api/sessions', {})).status).toBe(201); // starts the CLI
    const { pid, running: up } = running.app.app.get(CopilotCliConnection).status();
    expect(up).toBe(true);
    const environ = environOf(pid!);

    expect(environ.get('PATH')).toBe(process.env.PATH);
    expect(environ.get('HOME')).toBe(`${running.app.dir}/copilot-home`);
    expect(environ.get('ACME_TOOL_MODE')).toBe('passed-through');
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(environ.has(name)).toBe(false);
      expect([...environ.values()]).not.toContain(value);
    }
    expect([...environ.keys()].filter((k) => k.startsWith('SWITCHBOARD_'))).toEqual([]);
  }, 60_000);
});
