import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { cliEnvironment } from '../src/copilot-cli/cli-environment';
import { requirePeer } from './peers';

/**
 * The floor under bench:model-calls: the bare `@github/copilot-sdk` driving its own real Copilot CLI on the
 * same scripted model server, once with the CLI calling the model itself (`direct`) and once with every model
 * request handed to the client through `llmInference` (`handed`), answered by the SDK's own pass-through
 * `CopilotRequestHandler` (it forwards each request with fetch and streams the answer back, nothing else).
 * What `handed` adds over `direct` is what the CLI's hand-off costs any client, before the client does
 * anything of its own; what Switchboard's route adds beyond that is Switchboard's.
 *
 * Started as Switchboard starts its CLI without a GitHub token (`useLoggedInUser: false`, the environment
 * and folders of `cliEnvironment`), as bench:team-turn's SDK leg is.
 */
export type SdkModelMode = 'direct' | 'handed';

export interface SdkTurn {
  totalMs: number;
  ttftMs: number;
  deltas: number;
  streamMs: number;
}

interface Sdk {
  CopilotClient: new (options: Record<string, unknown>) => SdkClient;
  CopilotRequestHandler: new () => unknown;
  RuntimeConnection: { forStdio(options: { path: string }): unknown };
  approveAll: unknown;
}
interface SdkClient {
  start(): Promise<void>;
  stop(): Promise<unknown>;
  createSession(config: Record<string, unknown>): Promise<SdkSession>;
}
interface SdkSession {
  send(options: { prompt: string }): Promise<unknown>;
  on(handler: (event: { type: string; agentId?: string }) => void): () => void;
}

const MODEL = 'gpt-4.1';

export class SdkModelLeg {
  private readonly sessions: SdkSession[] = [];

  private constructor(
    readonly mode: SdkModelMode,
    private readonly client: SdkClient,
    private readonly sessionConfig: Record<string, unknown>,
  ) {}

  static async start(mode: SdkModelMode, modelBaseUrl: string, dir: string): Promise<SdkModelLeg> {
    const sdk = requirePeer<Sdk>('@github/copilot-sdk');
    const home = path.join(dir, `sdk-${mode}`);
    const workingDirectory = path.join(home, 'work');
    fs.mkdirSync(workingDirectory, { recursive: true });
    const providerEnv = { COPILOT_PROVIDER_BASE_URL: modelBaseUrl, COPILOT_PROVIDER_API_KEY: 'scripted', COPILOT_MODEL: MODEL };
    const env = cliEnvironment({ ...process.env, ...providerEnv }, { passthrough: [], home });
    const client = new sdk.CopilotClient({
      connection: sdk.RuntimeConnection.forStdio({ path: require.resolve(`@github/copilot-${process.platform}-${process.arch}`) }),
      baseDirectory: env.COPILOT_HOME,
      workingDirectory,
      useLoggedInUser: false,
      env,
      ...(mode === 'handed' ? { requestHandler: new sdk.CopilotRequestHandler() } : {}),
    });
    await client.start();
    return new SdkModelLeg(mode, client, {
      model: MODEL,
      provider: { type: 'openai', baseUrl: modelBaseUrl, apiKey: 'scripted' },
      streaming: true,
      onPermissionRequest: sdk.approveAll,
      workingDirectory,
    });
  }

  async sessionsUpTo(count: number): Promise<number[]> {
    while (this.sessions.length < count) this.sessions.push(await this.client.createSession(this.sessionConfig));
    return this.sessions.slice(0, count).map((_, i) => i);
  }

  /** One turn on session `index`: the send, the first streamed delta, the session's idle (its main agent's). */
  turn(index: number, prompt: string): Promise<SdkTurn> {
    const session = this.sessions[index];
    return new Promise<SdkTurn>((resolve, reject) => {
      const t0 = performance.now();
      let first: number | undefined;
      let last: number | undefined;
      let deltas = 0;
      const off = session.on((event) => {
        if (event.agentId) return;
        const now = performance.now();
        if (event.type === 'assistant.message_delta') {
          first ??= now;
          last = now;
          deltas += 1;
        } else if (event.type === 'session.idle') {
          off();
          resolve({ totalMs: now - t0, ttftMs: (first ?? now) - t0, deltas, streamMs: (last ?? now) - (first ?? now) });
        } else if (event.type === 'session.error') {
          off();
          reject(new Error(`sdk ${this.mode}: session.error during a turn`));
        }
      });
      session.send({ prompt }).catch((error: unknown) => {
        off();
        reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  }

  async close(): Promise<void> {
    await this.client.stop();
  }
}
