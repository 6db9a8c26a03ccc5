import { type AgentCard, type Message, Role, type Task } from '@a2a-js/sdk';
import { type Client, ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import { Inject, Injectable } from '@nestjs/common';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../../config';
import { guardedFetch, OutboundUrlGuard } from '../../outbound';

/** How long one call to a remote service may take (connect, answer and body). */
const CALL_TIMEOUT_MS = 30_000;

/** A remote agent as a launch talks to it: its card's name, and the three calls a run needs. */
export interface RemoteAgent {
  readonly name: string;
  send(text: string, ids: { messageId: string; contextId?: string }, signal: AbortSignal): Promise<Task | Message>;
  getTask(taskId: string, signal: AbortSignal): Promise<Task>;
  cancelTask(taskId: string): Promise<Task>;
}

/**
 * issue 43: the official A2A SDK's client of a remote agent, every request through the outbound guard and
 * carrying the operator's bearer token for the request's own origin (SWITCHBOARD_A2A_CREDENTIALS): a token is
 * never sent to an origin it was not given for, and no API caller can name one.
 */
@Injectable()
export class RemoteAgentClients {
  private readonly fetch: typeof fetch;

  constructor(@Inject(SWITCHBOARD_CONFIG) config: SwitchboardConfig, outbound: OutboundUrlGuard) {
    const guarded = guardedFetch(outbound, { timeoutMs: CALL_TIMEOUT_MS });
    const credentials = config.a2a.credentials;
    this.fetch = (input, init) => {
      const token = credentials[new URL(input instanceof Request ? input.url : String(input)).origin];
      if (!token) return guarded(input, init);
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${token}`);
      return guarded(input, { ...init, headers });
    };
  }

  /** Reads the agent's card at `cardUrl` and connects over the first transport both sides speak. */
  async connect(cardUrl: string): Promise<RemoteAgent> {
    const card: AgentCard = await new DefaultAgentCardResolver({ fetchImpl: this.fetch }).resolve(cardUrl, '');
    const factory = new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl: this.fetch }), new RestTransportFactory({ fetchImpl: this.fetch })],
    });
    return remoteAgentOf(card.name, await factory.createFromAgentCard(card));
  }
}

function remoteAgentOf(name: string, client: Client): RemoteAgent {
  return {
    name,
    send: (text, { messageId, contextId }, signal) =>
      client.sendMessage(
        {
          tenant: '',
          message: {
            messageId,
            contextId: contextId ?? '',
            taskId: '',
            role: Role.ROLE_USER,
            parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
            metadata: undefined,
            extensions: [],
            referenceTaskIds: [],
          },
          // Answered at once with the task: the run follows it (and can be stopped) rather than hold one request open.
          configuration: { acceptedOutputModes: ['text/plain'], taskPushNotificationConfig: undefined, returnImmediately: true },
          metadata: undefined,
        },
        { signal },
      ),
    getTask: (taskId, signal) => client.getTask({ tenant: '', id: taskId, historyLength: 0 }, { signal }),
    cancelTask: (taskId) => client.cancelTask({ tenant: '', id: taskId, metadata: undefined }),
  };
}
