import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { Contributes, currentActor } from '../../common';
import { EventStore, runStreamId, type StoredEvent, sessionStreamId } from '../../event-store';
import { MCP_TOOLS, mcpTool, type McpResourceTemplate, type McpTaskView, type McpTool, type McpToolContext, type McpToolSet } from '../../mcp-api';
import { budgetApiInputSchema, CliRecords, SessionEvents, workspaceRequestSchema } from '../../sessions';
import { Workspaces } from '../../workspaces';
import { StartRun } from '../commands/start-run/start-run.command';
import { SteerRun } from '../commands/steer-run/steer-run.command';
import { StopRun } from '../commands/stop-run/stop-run.command';
import { GetRun, type SingleRunView } from '../queries/get-run/get-run.query';
import { WatchRunEvents } from '../queries/watch-run-events/watch-run-events.query';
import { API_CALLER } from '../run-caller';
import { startRunInput, startRunSchema, stopRunSchema } from '../run-requests';
import { RunEvents } from '../run.events';
import { UnknownRunError } from '../run.errors';
import { progressOf } from './run-progress';

const runId = z.string().min(1).max(64).describe('The id run_agent answered with');

/**
 * issue 43: runs as MCP tools. `run_agent` waits for the run's end (telling the client each step as a
 * progress notification) and answers with its output; `background: true` answers at once with its id.
 * A client that cancels the call stops waiting, not the run: `stop_run` stops it.
 */
@Contributes(MCP_TOOLS)
export class RunMcpTools implements McpToolSet {
  readonly tools: McpTool[];
  readonly resources: McpResourceTemplate[];

  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
    private readonly store: EventStore,
    private readonly workspaces: Workspaces,
  ) {
    this.tools = [
      mcpTool({
        name: 'run_agent',
        title: 'Run an agent',
        description:
          "Runs a library agent (and the team under it) on a prompt and answers with its output, once the run ends. With background: true it answers at once with the run's id (get_run follows it). The run is recorded, budgeted and approved as any other run of the service.",
        input: {
          agent: z.string().min(1).max(64).describe('The agent id (list_agents)'),
          prompt: startRunSchema.shape.prompt.describe('What the agent should do'),
          background: z.boolean().optional().describe('true: answer at once with the run id instead of waiting for the end'),
          budget: budgetApiInputSchema.optional().describe('Limits over the run and every run under it'),
          workspace: workspaceRequestSchema.optional().describe('A git repository the run works in, a worktree of its own'),
        },
        call: (args, context) => this.runAgent(args, context),
        // issue 43: asked for as an MCP task, the run is the task: tasks/get reads it, tasks/result waits for its answer.
        tasks: {
          start: async (args) => taskViewOf(await this.queryBus.execute(new GetRun(await this.startRun({ ...args, background: true })))),
          find: async (taskId) => {
            const run = await this.callersMcpRun(taskId);
            return run && taskViewOf(run);
          },
          result: async (taskId) => {
            const run = await this.callersMcpRun(taskId);
            if (!run) throw new UnknownRunError(taskId);
            return answerOf(run);
          },
          cancel: async (taskId) => {
            await this.commandBus.execute(new StopRun(taskId, API_CALLER, 'cancelled by an MCP client (tasks/cancel)'));
          },
        },
      }),
      mcpTool({
        name: 'get_run',
        title: 'Get a run',
        description: "A run's status, output (once completed), error, cost and the runs it started.",
        input: { runId },
        readOnly: true,
        call: async ({ runId: id }) => answerOf(await this.queryBus.execute(new GetRun(id))),
      }),
      mcpTool({
        name: 'stop_run',
        title: 'Stop a run',
        description: 'Stops a running run and every run under it.',
        input: { runId, reason: stopRunSchema.shape.reason.describe('Why, recorded with the stop') },
        call: async ({ runId: id, reason }) => {
          const stopped = await this.commandBus.execute(new StopRun(id, API_CALLER, reason));
          return {
            text: `Run ${id} is ${stopped.status}; stopped: ${stopped.stopped_runs.join(', ') || 'none (it had ended)'}`,
            structured: { runId: id, status: stopped.status, stoppedRuns: stopped.stopped_runs },
          };
        },
      }),
      mcpTool({
        name: 'steer_run',
        title: 'Steer a run',
        description: "Tells a running run's agent something: it reads the message in its next model request.",
        input: { runId, message: z.string().trim().min(1).max(8000).describe('What the agent should know or do differently') },
        call: async ({ runId: id, message }) => {
          await this.commandBus.execute(new SteerRun(id, message, 'api'));
          return { text: `Run ${id} reads the message in its next model request.`, structured: { runId: id, steered: true } };
        },
      }),
    ];
    this.resources = [
      {
        name: 'run',
        title: 'A run',
        description: "A run: its view, its conversation (prompt, the agent's messages) and its workspace's changed files",
        uriTemplate: 'switchboard://runs/{runId}',
        read: ({ runId: id }) => this.runResource(id),
      },
    ];
  }

  /** Starts the run in the background, as its caller (the request's actor): its id. */
  private async startRun(args: RunAgentArgs): Promise<string> {
    const body = startRunSchema.parse({ agentId: args.agent, prompt: args.prompt, background: true, budget: args.budget, workspace: args.workspace });
    return (await this.commandBus.execute(new StartRun(startRunInput(body), API_CALLER))).run_id;
  }

  /** A run the caller started through MCP (a task is only its starter's to follow); undefined otherwise. */
  private async callersMcpRun(runId: string): Promise<SingleRunView | undefined> {
    let run: SingleRunView;
    try {
      run = await this.queryBus.execute(new GetRun(runId));
    } catch (error) {
      if (error instanceof UnknownRunError) return undefined;
      throw error;
    }
    const caller = currentActor();
    const starter = run.started_by;
    return starter?.via === 'mcp' && starter.kind === caller.kind && starter.id === caller.id ? run : undefined;
  }

  private async runAgent(args: RunAgentArgs, context: McpToolContext): Promise<{ text: string; structured: Record<string, unknown> }> {
    const started = { run_id: await this.startRun(args) };
    if (args.background) return answerOf(await this.queryBus.execute(new GetRun(started.run_id)));
    await context.progress(`run ${started.run_id} of ${args.agent} started`);
    // Replayed from the run's first event: its own run.started, announced just above, is not told twice.
    const own = runStreamId(started.run_id);
    const events = await this.queryBus.execute(new WatchRunEvents(started.run_id, true));
    const following = events.subscribe((event) => {
      const message = event.streamId === own && event.type === RunEvents.started ? undefined : progressOf(event);
      if (message) void context.progress(message);
    });
    try {
      // Waited for as agent_run with run_id waits (a paused run is refused, saying so); a cancel stops the wait only.
      await Promise.race([this.commandBus.execute(new StartRun({ runId: started.run_id, background: false }, API_CALLER)), abortedBy(context.signal)]);
      return answerOf(await this.queryBus.execute(new GetRun(started.run_id)));
    } finally {
      following.unsubscribe();
    }
  }

  private async runResource(id: string): Promise<unknown> {
    const run = await this.queryBus.execute(new GetRun(id));
    const [events, opened] = await Promise.all([this.store.readStream(sessionStreamId(run.thread_id)), this.workspaces.opened(run.thread_id)]);
    return {
      run: structuredOf(run),
      conversation: events.flatMap(conversationEntry),
      changes: opened ? { repository: opened.repository, branch: opened.branch, files: await this.workspaces.changes(opened) } : null,
    };
  }
}

interface RunAgentArgs {
  agent: string;
  prompt: string;
  background?: boolean;
  budget?: unknown;
  workspace?: unknown;
}

/** A run as an MCP task: running (paused too) is working; stopped is cancelled; interrupted ends the task as failed. */
function taskViewOf(run: SingleRunView): McpTaskView {
  const status = run.status === 'completed' ? 'completed' : run.status === 'stopped' ? 'cancelled' : run.ended_at === null ? 'working' : 'failed';
  const message =
    status === 'working'
      ? `Run ${run.run_id} of ${run.agent_id} is ${run.status}`
      : run.error
        ? `Run ${run.run_id} is ${run.status}: ${run.error}`
        : undefined;
  return {
    taskId: run.run_id,
    status,
    ...(message ? { statusMessage: message } : {}),
    createdAt: run.started_at,
    lastUpdatedAt: run.ended_at ?? run.started_at,
  };
}

/** The run as a tool answer: its output as the text once completed, else what it is doing or why it ended. */
function answerOf(run: SingleRunView): { text: string; structured: Record<string, unknown> } {
  const structured = structuredOf(run);
  if (run.status === 'completed') return { text: run.output ?? '', structured };
  const why = run.error ? `: ${run.error}` : '';
  return { text: `Run ${run.run_id} of ${run.agent_id} is ${run.status}${why}. get_run ${run.run_id} follows it.`, structured };
}

function structuredOf(run: SingleRunView): Record<string, unknown> {
  const usage = run.subtree_usage;
  return {
    runId: run.run_id,
    agentId: run.agent_id,
    status: run.status,
    output: run.output,
    error: run.error,
    cost: usage.cost === undefined || usage.cost === null ? null : { amount: usage.cost, currency: usage.currency ?? null },
    tokens: usage.total_tokens,
    startedAt: run.started_at,
    endedAt: run.ended_at,
  };
}

/** The prompt and the agent's answers of a run's session, in order. */
function conversationEntry(event: StoredEvent): Array<{ role: 'user' | 'assistant'; text: string; at: string }> {
  const data = event.data as { prompt?: unknown; payload?: { content?: unknown } };
  if (event.type === SessionEvents.messageSent && typeof data.prompt === 'string') return [{ role: 'user', text: data.prompt, at: event.recordedAt }];
  if (event.type === CliRecords.assistantMessage && typeof data.payload?.content === 'string' && data.payload.content !== '') {
    return [{ role: 'assistant', text: data.payload.content, at: event.recordedAt }];
  }
  return [];
}

function abortedBy(signal: AbortSignal): Promise<'aborted'> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve('aborted');
    else signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
}
