import { AgentCard as AgentCardJson } from '@a2a-js/sdk';
import { jsonRpcHandler, restHandler } from '@a2a-js/sdk/server/express';
import { All, Controller, Get, Inject, NotFoundException, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, RequestHandler, Response } from 'express';
import { AgentLibrary } from '../agents';
import { actingAs, DocumentedAnswers, serviceVersion } from '../common';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { AccessPolicy, actorOfPrincipal, PRINCIPAL_PROPERTY, type Principal } from '../identity';
import { A2A_ANSWERS } from './a2a-api.api-answers';
import { a2aOperationOfJsonRpc, a2aOperationOfRest } from './a2a-operations';
import { A2aTaskStore } from './a2a-task-store';
import { agentCardOf, type CardAgent } from './agent-card';
import { AgentTasks } from './agent-tasks';
import { PushNotifications } from './push-notifications/push-notifications';

const VERSION = serviceVersion();
type A2aRequest = Request & { [PRINCIPAL_PROPERTY]?: Principal };

/**
 * issue 43: every library agent is an A2A agent at `/a2a/<agentId>`: its card at
 * `/.well-known/agent-card.json` under it, JSON-RPC as POST to it, HTTP+JSON under it (`/message:send`,
 * `/tasks/<id>`...), both spoken by the official SDK's Express handlers over `AgentTasks`. The global guard
 * authenticated the caller as for the API; each A2A operation then has its own rule (`A2a.SendMessage`...),
 * checked here before the SDK reads the request, and runs as the caller `via: a2a`.
 */
@ApiTags('a2a')
@DocumentedAnswers(A2A_ANSWERS)
@Controller('a2a')
export class A2aController {
  constructor(
    private readonly agents: AgentLibrary,
    private readonly tasks: A2aTaskStore,
    private readonly policy: AccessPolicy,
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly push: PushNotifications,
  ) {}

  @Get(':agentId/.well-known/agent-card.json')
  @ApiOperation({ summary: "An agent's A2A card: its name, skills (its own and its team's), transports and security scheme" })
  async card(@Param('agentId') agentId: string, @Req() request: A2aRequest): Promise<unknown> {
    return AgentCardJson.toJSON(await this.cardOf(agentId, this.originOf(request)));
  }

  @Post(':agentId')
  @ApiOperation({ summary: 'A2A over JSON-RPC 2.0: SendMessage, SendStreamingMessage, GetTask, ListTasks, CancelTask, SubscribeToTask' })
  async jsonRpc(@Param('agentId') agentId: string, @Req() request: A2aRequest, @Res() response: Response): Promise<void> {
    const body = request.body as { method?: unknown } | undefined;
    const method = typeof body?.method === 'string' ? body.method : undefined;
    await this.serve(agentId, a2aOperationOfJsonRpc(method), request, response, (handler) => {
      // The SDK's router answers POST / of the agent's URL.
      request.url = '/';
      return jsonRpcHandler({ requestHandler: handler, userBuilder: userOf(request) });
    });
  }

  /** A2A's HTTP+JSON binding; its routes are A2A's own (the A2A specification), not this service's to document. */
  @All(':agentId/*path')
  @ApiExcludeEndpoint()
  async rest(@Param('agentId') agentId: string, @Req() request: A2aRequest, @Res() response: Response): Promise<void> {
    const prefix = `/a2a/${encodeURIComponent(agentId)}`;
    const path = request.url.startsWith(prefix) ? request.url.slice(prefix.length) : request.url;
    await this.serve(agentId, a2aOperationOfRest(request.method, path), request, response, (handler) => {
      // The SDK's router matches paths under the agent's URL.
      request.url = path;
      return restHandler({ requestHandler: handler, userBuilder: userOf(request) });
    });
  }

  private async serve(
    agentId: string,
    operation: string | undefined,
    request: A2aRequest,
    response: Response,
    handlerFor: (tasks: AgentTasks) => RequestHandler,
  ): Promise<void> {
    const principal = request[PRINCIPAL_PROPERTY];
    if (!principal) throw new Error('the guard let an A2A request through without a principal');
    // An operation A2A does not have is the SDK's to refuse (method not found); one it has needs its permission.
    if (operation) this.policy.assertAllowed(operation, principal);
    const origin = this.originOf(request);
    const closed = new AbortController();
    response.once('close', () => closed.abort());
    const tasks = new AgentTasks(agentId, await this.cardOf(agentId, origin), this.tasks, origin, closed.signal, this.push);
    await actingAs(actorOfPrincipal(principal, 'a2a'), () => served(handlerFor(tasks), request, response));
  }

  private async cardOf(agentId: string, origin: string) {
    const agent = await this.agents.find(agentId);
    if (!agent) throw new NotFoundException({ code: 'not_found', message: `No agent ${agentId} in the library: GET /api/agents lists them` });
    const team = await this.agents.findMany(agent.sub_agents);
    const cardAgent = (a: typeof agent): CardAgent => ({
      id: a.id,
      name: a.name,
      description: a.description,
      tools: [...a.tools.custom, ...a.tools.builtin],
    });
    const members = agent.sub_agents.flatMap((id) => {
      const member = team.get(id);
      return member ? [cardAgent(member)] : [];
    });
    return agentCardOf(cardAgent(agent), members, `${origin}/a2a/${encodeURIComponent(agent.id)}`, VERSION, this.push.enabled);
  }

  /** Where clients reach the service: SWITCHBOARD_PUBLIC_URL, else the request's own (its Host was checked against the allowed hosts). */
  private originOf(request: Request): string {
    const configured = this.config.instances.publicUrl;
    return configured ? new URL(configured).origin : `${request.protocol}://${request.get('host')}`;
  }
}

/** The SDK's view of the caller: authenticated (the guard let it through), by its name. */
function userOf(request: A2aRequest) {
  const name = request[PRINCIPAL_PROPERTY]?.name ?? 'caller';
  return async () => ({ isAuthenticated: true, userName: name });
}

/** Runs an Express handler to its answer; a path it has no route for is this service's 404. */
function served(handler: RequestHandler, request: Request, response: Response): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    response.once('close', () => resolve());
    response.once('finish', () => resolve());
    void handler(request, response, (error?: unknown) => {
      if (error) reject(error instanceof Error ? error : new Error('an A2A handler failed'));
      else
        reject(
          new NotFoundException({
            code: 'not_found',
            message: `No A2A operation at ${request.method} ${request.url}: see the agent's card for its interfaces`,
          }),
        );
    });
  });
}
