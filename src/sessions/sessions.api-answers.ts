import { z } from 'zod';
import { type ControllerAnswers, SESSION_ID, AT, LATER, iso, nullable, uuidParameter, text } from '../common';
import type { SessionsController } from './sessions.controller';

const CHILD_SESSION_ID = '0192f3a4-9999-7abc-8def-0123456789ab';

const sessionSummary = z.object({ sessionId: z.uuid(), status: z.string(), model: z.string(), protocolVersion: z.number().int().optional() });
export const agentSteered = z.object({
  sessionId: z.string(),
  target: z.enum(['main', 'subagent']),
  subagentId: z.string().optional(),
  agentName: z.string(),
  status: z.literal('steered'),
});
const sessionListItem = z.object({
  sessionId: z.string(),
  status: z.string(),
  statusReason: nullable(z.string()),
  model: z.string(),
  agentId: nullable(z.string()),
  subAgents: z.array(z.string()),
  createdAt: iso,
  updatedAt: iso,
});
const launch = z.object({
  toolCallId: z.string(),
  agentName: z.string(),
  childSessionId: z.string(),
  status: z.string(),
  error: nullable(z.string()),
  startedAt: iso,
  endedAt: nullable(iso),
  totalTokens: nullable(z.number()),
  totalToolCalls: nullable(z.number()),
  durationMs: nullable(z.number()),
});
const sessionView = sessionListItem.extend({
  protocolVersion: z.number().int(),
  config: z.record(z.string(), z.unknown()).describe('what it was created with (the POST body, defaults applied)'),
  workingDirectory: z.string(),
  workspaceRepositories: z.array(z.string()),
  lastPosition: z.number().int(),
  subAgentLaunches: z.array(launch).describe("the CLI's own sub-agent launches (task tool) in this session"),
});
const sessionListExample = {
  sessionId: SESSION_ID,
  status: 'idle',
  statusReason: null,
  model: 'gpt-4.1',
  agentId: 'code-reviewer',
  subAgents: ['test-writer'],
  createdAt: AT,
  updatedAt: LATER,
};
const sessionExample = {
  ...sessionListExample,
  protocolVersion: 3,
  config: {
    model: 'gpt-4.1',
    tools: [],
    customAgents: [],
    permissionPolicy: { allowKinds: ['read'], approveOwnTools: true },
    agentId: 'code-reviewer',
    subAgents: ['test-writer'],
  },
  workingDirectory: '/var/lib/switchboard/work',
  workspaceRepositories: ['/srv/repos'],
  lastPosition: 42,
  subAgentLaunches: [
    {
      toolCallId: 'call_8f2a',
      agentName: 'test-writer',
      childSessionId: CHILD_SESSION_ID,
      status: 'completed',
      error: null,
      startedAt: AT,
      endedAt: LATER,
      totalTokens: 5120,
      totalToolCalls: 4,
      durationMs: 49775,
    },
  ],
};

/** What the sessions' routes answer. */
export const SESSIONS_ANSWERS: ControllerAnswers<SessionsController> = {
  answers: {
    create: {
      status: 201,
      description: 'The session, started in the Copilot CLI',
      schema: sessionSummary,
      example: { sessionId: SESSION_ID, status: 'active', model: 'gpt-4.1', protocolVersion: 3 },
      request: {
        agentId: 'code-reviewer',
        subAgents: ['test-writer'],
        delegation: true,
        permissionPolicy: { allowKinds: ['read'], askKinds: ['write'] },
        budget: { maxTokens: 200000, maxRuns: 10 },
      },
    },
    list: {
      status: 200,
      description: 'Sessions, newest first',
      schema: z.object({ sessions: z.array(sessionListItem) }),
      example: { sessions: [sessionListExample] },
    },
    get: { status: 200, description: 'The session', schema: sessionView, example: sessionExample },
    send: {
      status: 202,
      description: 'Accepted: the answer arrives on the event stream',
      schema: z.object({ sessionId: z.string(), messageId: z.string().optional() }),
      example: { sessionId: SESSION_ID, messageId: 'msg_01J9Z' },
      request: { prompt: 'Review the diff in src/parser.ts and name the file and line of each problem.' },
    },
    change: {
      status: 200,
      description: 'The sub-agents now chosen',
      schema: z.object({ sessionId: z.string(), subAgents: z.array(z.string()) }),
      example: { sessionId: SESSION_ID, subAgents: ['test-writer'] },
      request: { subAgents: ['test-writer'] },
    },
    resume: {
      status: 200,
      description: 'Resumed',
      schema: sessionSummary,
      example: { sessionId: SESSION_ID, status: 'idle', model: 'gpt-4.1', protocolVersion: 3 },
    },
    abort: {
      status: 202,
      description: 'Stopping: the CLI was asked to end the running turn; the session turns idle when it has (409 when no turn runs)',
      schema: z.object({ sessionId: z.string(), status: z.literal('stopping') }),
      example: { sessionId: SESSION_ID, status: 'stopping' },
    },
    steer: {
      status: 202,
      description:
        "Steered: the CLI has the message and the agent's next model request carries it; recorded as session.steered (409 when the turn or the sub-agent is not running, 404 unknown sub-agent, 422 on a protocol-2 CLI)",
      schema: agentSteered,
      example: { sessionId: SESSION_ID, target: 'subagent', subagentId: CHILD_SESSION_ID, agentName: 'test-writer', status: 'steered' },
      request: { message: 'Only src/parser.ts; leave the lexer alone.', subagentId: CHILD_SESSION_ID },
    },
    destroy: {
      status: 200,
      description: 'Destroyed',
      schema: z.object({ sessionId: z.string(), status: z.literal('destroyed') }),
      example: { sessionId: SESSION_ID, status: 'destroyed' },
    },
    events: {
      status: 200,
      ...text(
        "Server-Sent Events: one per stream event (id: its stream position; data: {position, globalPosition, type, data, recordedAt}); when the caller's key or sign-in session ends, a last `closed` event (data: {code, message}) and the end of the stream",
        'text/event-stream',
        `id: 3\nevent: session.message_sent\ndata: {"position":3,"globalPosition":1201,"type":"session.message_sent","data":{"prompt":"Review the diff"},"recordedAt":"${AT}"}\n\n`,
      ),
    },
  },
  pathParameters: { id: uuidParameter(SESSION_ID) },
};
