import { test as base } from '@playwright/test';
import { startOidcProvider } from '../../test/fixtures/oidc-provider-fixture';
import { ScriptedModelServer } from '../../test/fixtures/scripted-model-server';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { freePort } from '../../test/fixtures/service-process';
import { makeTempDir } from '../../test/fixtures/temp-dir';
import { type AgentsApi, type RunningService, type ServiceOptions, startService } from './service';

export { expect } from '@playwright/test';
export { ApiCallError, type AgentView, MCP_SERVERS } from './service';

interface WorkerFixtures {
  /**
   * SWITCHBOARD_API_TOKEN for this file's service (`test.use({ apiToken: '...' })`, 16+ characters);
   * undefined: the API is open. A file with another value gets its own worker, so its own service.
   */
  apiToken: string | undefined;
  /**
   * SWITCHBOARD_ALLOW_HOST_PERMISSIONS (`test.use({ hostPermissions: false })` for a default install);
   * true by default: the approvals scenarios ask a person before a shell command.
   */
  hostPermissions: boolean;
  /**
   * The service's price table (`SWITCHBOARD_MODEL_PRICES`); by default E2E_MODEL_PRICES, which prices the
   * scripted model's one model, so model calls have a cost in every scenario.
   */
  modelPrices: ServiceOptions['modelPrices'];
  /**
   * The scripted OpenAI-compatible model server the service's real Copilot CLI talks to (the only fake:
   * the model's answers are the outside world's). A scenario sets its script with `model.setScript`.
   */
  modelServer: ScriptedModelServer;
  /**
   * People sign in through OpenID Connect (`test.use({ signIn: true })`): a real provider (oidc-provider,
   * a child process on loopback, as the jest sign-in tests start it; its login page takes any password
   * for the accounts of test/fixtures/oidc-test-accounts.ts) and the service configured for it.
   */
  signIn: boolean;
  /**
   * A scenario that changes its service for good (`test.use({ ownService: 'first-key' })`: its first key
   * closes the open API) names it here: a different value is a worker, so a service, of its own.
   */
  ownService: string | undefined;
  /**
   * Workspaces on (`test.use({ workspaces: true })`, issue 42): the service gets SWITCHBOARD_REPOSITORIES, a
   * folder of repositories of this worker's own (`repositories`), where a scenario makes the git repository
   * its sessions work on, and its worktrees beside it.
   */
  workspaces: boolean;
  /** That folder (its real path, as the service compares them); undefined while workspaces are off. */
  repositories: string | undefined;
  /** The real service on a fresh SQLite file, started once per worker and stopped (SIGTERM) after. */
  service: RunningService;
}

interface TestFixtures {
  /** The REST API with the token: scenarios change agents through it "behind the console's back". */
  api: AgentsApi;
  /** The worker's model server with no script and an empty request log, for this test alone. */
  model: ScriptedModelServer;
  /**
   * Every test starts on an empty agent library (automatic), so counts and filters a scenario checks
   * are its own, whatever ran before it on the same service.
   */
  emptyLibrary: void;
}

// Fixture bodies name their callback `provide`, not Playwright's usual `use`: the console's lint runs the
// React hooks rules on web/, which take any call to `use` for React's hook.
export const test = base.extend<TestFixtures, WorkerFixtures>({
  apiToken: [undefined, { option: true, scope: 'worker' }],
  hostPermissions: [true, { option: true, scope: 'worker' }],
  modelPrices: [undefined, { option: true, scope: 'worker' }],
  signIn: [false, { option: true, scope: 'worker' }],
  ownService: [undefined, { option: true, scope: 'worker' }],
  workspaces: [false, { option: true, scope: 'worker' }],

  repositories: [
    async ({ workspaces }, provide) => {
      if (!workspaces) return provide(undefined);
      const folder = makeTempDir('switchboard-console-repos-');
      try {
        const repositories = path.join(fs.realpathSync(folder.dir), 'repositories');
        fs.mkdirSync(repositories);
        await provide(repositories);
      } finally {
        folder.cleanup();
      }
    },
    { scope: 'worker' },
  ],

  modelServer: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, provide) => {
      const server = await new ScriptedModelServer().start();
      try {
        await provide(server);
      } finally {
        await server.stop();
      }
    },
    { scope: 'worker' },
  ],

  service: [
    async ({ apiToken, hostPermissions, modelPrices, modelServer, signIn, repositories }, provide) => {
      // The provider's client names the redirect, and the service its public URL: both need the port first.
      const provider = signIn ? await startOidcProvider() : undefined;
      const port = await freePort();
      const publicUrl = `http://127.0.0.1:${port}`;
      try {
        await provider?.register(`${publicUrl}/auth/callback`);
        const service = await startService({
          apiToken,
          port,
          modelPrices: modelPrices ?? E2E_MODEL_PRICES,
          env: {
            ...modelServer.providerEnv(),
            // The approvals scenarios ask a person before a shell command: the operator's opt-in to host kinds.
            SWITCHBOARD_ALLOW_HOST_PERMISSIONS: String(hostPermissions),
            ...(repositories
              ? { SWITCHBOARD_REPOSITORIES: repositories, SWITCHBOARD_WORKSPACES_DIR: path.join(path.dirname(repositories), 'worktrees') }
              : {}),
            ...(provider
              ? {
                  SWITCHBOARD_OIDC_ISSUER: provider.issuer,
                  SWITCHBOARD_OIDC_CLIENT_ID: 'switchboard',
                  SWITCHBOARD_PUBLIC_URL: publicUrl,
                  SWITCHBOARD_OIDC_ROLES_CLAIM: 'roles',
                }
              : {}),
          },
        });
        try {
          await provide(service);
        } finally {
          await service.stop();
        }
      } finally {
        await provider?.stop();
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],

  baseURL: async ({ service }, provide) => provide(service.url),

  api: async ({ service }, provide) => provide(service.api),

  model: async ({ modelServer }, provide) => {
    modelServer.setScript([]);
    modelServer.requests.length = 0;
    await provide(modelServer);
  },

  emptyLibrary: [
    async ({ service }, provide, testInfo) => {
      await service.api.deleteAllAgents();
      await provide();
      // What the service logged (warn and up) beside a failure's trace and screenshot.
      if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('service-output.txt', { body: service.output(), contentType: 'text/plain' });
    },
    { auto: true },
  ],
});

/** The price table every scenario's service has unless it sets another: gpt-4.1 (the scripted model's) at 2 in, 8 out per million tokens. */
export const E2E_MODEL_PRICES = { currency: 'USD', models: { 'gpt-4.1': { input: 2, output: 8 } } };

/** A token long enough for the service (it wants 16+ characters). */
export const TEST_API_TOKEN = 'console-e2e-token-0123456789abcdef';
