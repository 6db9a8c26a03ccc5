import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { actingAs, DomainError } from '../common';
import type { ToolResult } from '../copilot-cli';
import { type Lineage, LineageLookup } from '../run-lineage';
import { type BuiltinTool, type BuiltinToolProvider, ProvidesBuiltinTools, type ToolInvocation, type ToolSpec, SessionRegistry } from '../sessions';
import { agentActor } from './agent-actor';
import { StartRun } from './commands/start-run/start-run.command';
import { StopRun } from './commands/stop-run/stop-run.command';
import { GetRunOutput } from './queries/get-run-output/get-run-output.query';
import { FORK_CONTEXT_LIMITS } from './fork-context';
import { runBudgetInputSchema } from './run-budget';
import { InvalidRunArgumentsError } from './run.errors';
import type { RunCaller } from './run-caller';

const runIdProperty = { type: 'string', description: 'The run_id a previous agent_run returned.' };

/** spec: the three delegation tools, with the usage guidance in their descriptions (agent_tools). */
export const DELEGATION_TOOLS: ToolSpec[] = [
  {
    name: 'agent_run',
    description:
      'Delegate a task to another agent, which runs it on its own thread. Give agent_id and prompt to start a run; ' +
      'give run_id to check on a run, or to resume one that was interrupted or stopped. background=false (default) waits ' +
      'for the run to finish and returns its output; background=true returns at once, and you are told when it ends. ' +
      'Returns JSON {run_id, agent_id, status, output?, error?}.',
    parameters: {
      type: 'object',
      properties: {
        agent_id: { type: 'string', description: 'Id of the agent to run (from the agent library).' },
        prompt: { type: 'string', description: 'The task for the agent, self-contained.' },
        run_id: runIdProperty,
        background: { type: 'boolean', description: 'true: do not wait for the run to finish.' },
        fork_context: {
          type: 'boolean',
          description:
            `true: the agent starts with a copy of this conversation so far (the last ${FORK_CONTEXT_LIMITS.maxMessages} messages at most), ` +
            'before your prompt. Default false: it sees only your prompt.',
        },
        budget: {
          type: 'object',
          description:
            'Limits over the run and every run it starts (any subset, positive integers, max_cost an amount of money; never more than your own budget has left). ' +
            'Past a limit the run and its runs are stopped and the result says budget_exceeded; a model call past max_tokens or max_cost is refused before it is sent.',
          properties: {
            max_tokens: { type: 'integer', minimum: 1 },
            max_tool_calls: { type: 'integer', minimum: 1 },
            max_runs: { type: 'integer', minimum: 1 },
            max_duration_ms: { type: 'integer', minimum: 1 },
            max_cost: { type: 'number', exclusiveMinimum: 0, description: "In the operator's price table's currency (needs SWITCHBOARD_MODEL_PRICES)" },
          },
        },
      },
    },
    handler: { type: 'builtin', name: 'agent_run' },
  },
  {
    name: 'agent_stop',
    description: 'Stop a run you started; every run it started is stopped with it. Returns JSON {run_id, agent_id, status, stopped_runs}.',
    parameters: { type: 'object', properties: { run_id: runIdProperty }, required: ['run_id'] },
    handler: { type: 'builtin', name: 'agent_stop' },
  },
  {
    name: 'agent_output',
    description: "Read a run's status and, once it completed, its output. Returns JSON {run_id, agent_id, status, output?, error?}.",
    parameters: { type: 'object', properties: { run_id: runIdProperty }, required: ['run_id'] },
    handler: { type: 'builtin', name: 'agent_output' },
  },
];

const runArgs = z
  .object({
    agent_id: z.string().min(1).optional(),
    prompt: z.string().optional(),
    run_id: z.string().min(1).optional(),
    background: z.boolean().optional().default(false),
    fork_context: z.boolean().optional().default(false),
    budget: runBudgetInputSchema.optional(),
  })
  .strict();
const runIdArgs = z.object({ run_id: z.string().min(1) }).strict();

/**
 * The delegation commands and the output query as built-in tools of a session's main agent: the same
 * handlers the API uses, with the calling session as the owner thread. Refusals are failure results
 * whose text is JSON with a stable code, so the model can tell an unknown agent from a policy refusal.
 */
@ProvidesBuiltinTools()
export class DelegationTools implements BuiltinToolProvider {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
    private readonly lineages: LineageLookup,
    private readonly sessions: SessionRegistry,
  ) {}

  builtinTools(): { tools: Record<string, BuiltinTool>; groups: Record<string, ToolSpec[]> } {
    return {
      groups: { delegation: DELEGATION_TOOLS },
      tools: {
        agent_run: (invocation) =>
          this.call(invocation, runArgs, (args, caller) =>
            this.commandBus.execute(
              new StartRun(
                {
                  agentId: args.agent_id,
                  prompt: args.prompt,
                  runId: args.run_id,
                  background: args.background,
                  forkContext: args.fork_context,
                  budget: args.budget,
                },
                caller,
              ),
            ),
          ),
        agent_stop: (invocation) => this.call(invocation, runIdArgs, (args, caller) => this.commandBus.execute(new StopRun(args.run_id, caller))),
        agent_output: (invocation) => this.call(invocation, runIdArgs, (args, caller) => this.queryBus.execute(new GetRunOutput(args.run_id, caller))),
      },
    };
  }

  private async lineageOf(invocation: ToolInvocation): Promise<string[]> {
    const run = await this.lineages.lineageOfSession(invocation.sessionId);
    const rootOwner = run?.rootOwnerSessionId ? this.sessions.get(run.rootOwnerSessionId)?.config.agentId : undefined;
    return lineageFrom(this.sessions.get(invocation.sessionId)?.config.agentId, run, rootOwner, invocation.agentName);
  }

  private async call<S extends z.ZodTypeAny>(
    invocation: ToolInvocation,
    schema: S,
    run: (args: z.infer<S>, caller: RunCaller) => Promise<object>,
  ): Promise<ToolResult> {
    const caller: RunCaller = {
      kind: 'tool',
      sessionId: invocation.sessionId,
      ...(invocation.agentName ? { agentName: invocation.agentName } : {}),
      ...(invocation.toolCallId ? { toolCallId: invocation.toolCallId } : {}),
    };
    try {
      const parsed = schema.safeParse(typeof invocation.arguments === 'string' ? safeJson(invocation.arguments) : (invocation.arguments ?? {}));
      if (!parsed.success) {
        throw new InvalidRunArgumentsError(
          `Invalid arguments for ${invocation.toolName}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ')}`,
        );
      }
      // issue 27: what the tool does is the calling agent's (its events record it, with its lineage).
      const actor = agentActor(invocation.sessionId, await this.lineageOf(invocation), invocation.agentName);
      return { textResultForLlm: JSON.stringify(await actingAs(actor, () => run(parsed.data, caller))), resultType: 'success' };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const args = (invocation.arguments ?? {}) as { run_id?: string; agent_id?: string };
      const text = JSON.stringify({
        run_id: args.run_id ?? null,
        agent_id: args.agent_id ?? null,
        status: 'refused',
        error: { code: error.code, message: error.message },
      });
      return { textResultForLlm: text, resultType: 'failure', error: text };
    }
  }
}

/** Agent names from the top of the team down to the caller (as approvals name a requester's lineage). */
function lineageFrom(ownAgent: string | undefined, run: Lineage | undefined, rootOwnerAgent: string | undefined, agentName?: string): string[] {
  const child = agentName ? [agentName] : [];
  if (!run) return [ownAgent ?? 'main', ...child];
  return [...(rootOwnerAgent ? [rootOwnerAgent] : []), ...run.agentPath, ...child];
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
