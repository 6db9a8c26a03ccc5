/**
 * Switchboard as bench:console's event-to-screen part runs it: the production app in a process of its
 * own, plus the traffic a team of sessions causes, appended by the app's own store in this process (where
 * the CLI's events are appended when a real CLI sends them). Configured from the environment like the
 * service. It seeds a lead run with SESSIONS child runs, prints `READY <port> <lead run id>`, waits for
 * `go` on stdin, then for LOAD_SECONDS: each child's session records tool calls and messages at
 * EVENTS_PER_SESSION_PER_SECOND, and every MARK_EVERY_MS the lead says `mark-<n>` (an assistant message
 * on its thread). For each mark it prints `MARK <n> <commit epoch ms>`: the moment the append resolved in
 * this writer (the commit and its WAL sync); then `DONE <events> <seconds>`.
 */
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import * as readline from 'node:readline';
import { v7 as uuidv7 } from 'uuid';
import { createSwitchboardApp } from '../src/bootstrap';
import { loadConfig } from '../src/config/switchboard-config';
import type { RunStartedData } from '../src/delegation/run.events';
import { EventStore } from '../src/event-store/event-store';
import type { NewEvent } from '../src/event-store/event-store.types';
import { runStreamId, sessionStreamId } from '../src/event-store/stream-ids';
import { runStartedData } from './figures';

const SESSIONS = Number(process.env.SESSIONS ?? 16);
const EVENTS_PER_SESSION_PER_SECOND = Number(process.env.EVENTS_PER_SESSION_PER_SECOND ?? 25);
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 15);
const MARK_EVERY_MS = Number(process.env.MARK_EVERY_MS ?? 100);
const POLICY = { allowedAgents: null, excludedAgents: [], maxDepth: 5, maxConcurrentChildren: 100, timeoutMs: 1_800_000 };

function started(runId: string, parent: RunStartedData | undefined, agentId: string): RunStartedData {
  return runStartedData(runId, parent, agentId, { prompt: parent ? `Part ${agentId} of the work` : 'Lead the work of the team', policy: POLICY });
}

/** A session's n-th event: a tool call's start, routing record and end, a message, the usage report, in turn. */
function sessionEvent(threadId: string, n: number): NewEvent {
  const call = Math.floor(n / 5);
  const toolCallId = `${threadId}-call-${call}`;
  const args = { path: `src/module-${call % 40}.ts`, pattern: 'TODO' };
  const meta = { actor: 'bench', correlationId: threadId };
  switch (n % 5) {
    case 0:
      return { type: 'cli.tool.execution_start', data: { payload: { toolCallId, toolName: 'grep', arguments: args } }, metadata: meta };
    case 1:
      return {
        type: 'tool_call.routed',
        data: {
          via: 'tool.call',
          parentSessionId: threadId,
          toolCallId,
          toolName: 'grep',
          arguments: args,
          outcome: 'ok',
          result: { matches: 3 },
          latencyMs: 12,
        },
        metadata: meta,
      };
    case 2:
      return {
        type: 'cli.tool.execution_complete',
        data: { payload: { toolCallId, success: true, result: { content: 'src/a.ts:3: TODO' } } },
        metadata: meta,
      };
    case 3:
      return {
        type: 'cli.assistant.message',
        data: { payload: { messageId: `${toolCallId}-m`, content: `Found three TODOs in call ${call}; reading the next file.` } },
        metadata: meta,
      };
    default:
      return { type: 'cli.assistant.usage', data: { payload: { model: 'gpt-5', inputTokens: 1800, outputTokens: 120 } }, metadata: meta };
  }
}

const sleepUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

async function main(): Promise<void> {
  const app = await createSwitchboardApp({ ...loadConfig(), port: 0, host: '127.0.0.1' });
  await app.listen(0, '127.0.0.1');
  const store = app.get(EventStore);
  const lead = started(uuidv7(), undefined, 'lead');
  await store.append(runStreamId(lead.runId), 'no_stream', [{ type: 'run.started', data: { ...lead } }]);
  const team: RunStartedData[] = [];
  for (let s = 0; s < SESSIONS; s++) {
    const member = started(uuidv7(), lead, `member-${s}`);
    team.push(member);
    await store.append(runStreamId(member.runId), 'no_stream', [{ type: 'run.started', data: { ...member } }]);
  }
  process.stdout.write(`READY ${(app.getHttpServer().address() as AddressInfo).port} ${lead.runId}\n`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));

  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) if (line.trim() === 'go') break;

  const from = Date.now();
  const until = from + LOAD_SECONDS * 1000;
  let events = 0;
  const gap = 1000 / EVENTS_PER_SESSION_PER_SECOND;
  const sessions = team.map(async (member, s) => {
    const stream = sessionStreamId(member.threadId);
    // Spread over one gap, so the sessions do not all append in the same turn.
    for (let n = 0, due = from + (gap * s) / SESSIONS; due < until; n++, due += gap) {
      await sleepUntil(due);
      await store.append(stream, 'any', [sessionEvent(member.threadId, n)]);
      events++;
    }
  });
  const leadThread = sessionStreamId(lead.threadId);
  const marks = (async () => {
    for (let n = 1, due = from + MARK_EVERY_MS; due < until; n++, due += MARK_EVERY_MS) {
      await sleepUntil(due);
      await store.append(leadThread, 'any', [
        { type: 'cli.assistant.message', data: { payload: { messageId: `mark-${n}`, content: `mark-${n} from the lead` } }, metadata: { actor: 'bench' } },
      ]);
      process.stdout.write(`MARK ${n} ${Date.now()}\n`);
      events++;
    }
  })();
  await Promise.all([...sessions, marks]);
  process.stdout.write(`DONE ${events} ${((Date.now() - from) / 1000).toFixed(2)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`console-event-service: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
