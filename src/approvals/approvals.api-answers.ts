import { z } from 'zod';
import { type ControllerAnswers, SESSION_ID, RUN_ID, AT, LATER, KEY_ID, iso, nullable, uuidParameter, actorView } from '../common';
import type { ApprovalsController } from './approvals.controller';

const APPROVAL_ID = '0192f3a4-aaaa-7abc-8def-0123456789ab';

const approvalView = z.object({
  id: z.uuid(),
  status: z.string(),
  kind: z.string(),
  toolName: nullable(z.string()),
  arguments: z.unknown(),
  sessionId: z.string(),
  childSessionId: nullable(z.string()),
  agentName: nullable(z.string()),
  runId: nullable(z.string()),
  rootRunId: nullable(z.string()),
  lineagePath: z.array(z.string()),
  requestedAt: iso,
  decidedAt: nullable(iso),
  decision: nullable(z.string()),
  scope: nullable(z.string()),
  decidedBy: nullable(z.string()).describe('where it was decided from: console, api, or timeout, expired'),
  decider: nullable(actorView).describe('issue 27: who decided; null while pending'),
  reason: nullable(z.string()),
});
const approvalExample = {
  id: APPROVAL_ID,
  status: 'approved',
  kind: 'shell',
  toolName: 'bash',
  arguments: { command: 'npm test' },
  sessionId: SESSION_ID,
  childSessionId: null,
  agentName: 'test-writer',
  runId: RUN_ID,
  rootRunId: RUN_ID,
  lineagePath: [RUN_ID],
  requestedAt: AT,
  decidedAt: LATER,
  decision: 'approved',
  scope: 'once',
  decidedBy: 'api',
  decider: { kind: 'key', id: KEY_ID, name: 'nightly-ci', via: 'api' },
  reason: 'tests only',
};

/** What the approvals' routes answer. */
export const APPROVALS_ANSWERS: ControllerAnswers<ApprovalsController> = {
  answers: {
    list: {
      status: 200,
      description: 'A page of approvals',
      schema: z.object({ approvals: z.array(approvalView), nextCursor: nullable(z.string()) }),
      example: { approvals: [approvalExample], nextCursor: null },
    },
    decide: {
      status: 200,
      description: 'The decided approval',
      schema: approvalView,
      example: approvalExample,
      request: { decision: 'approve', scope: 'once', reason: 'tests only' },
    },
  },
  pathParameters: { id: uuidParameter(APPROVAL_ID) },
};
