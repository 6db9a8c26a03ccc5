import { z } from 'zod';
import { type ControllerAnswers, RUN_ID, SESSION_ID, uuidParameter } from '../common';
import type { WorkspacesController } from './workspaces.controller';

const COMMIT = '3f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39';
const fileChange = z.object({
  path: z.string(),
  status: z.enum(['added', 'modified', 'deleted', 'renamed', 'type-changed']),
  additions: z.number().int(),
  deletions: z.number().int(),
  previousPath: z.string().optional(),
  binary: z.boolean().optional(),
});
const merge = z.object({
  sessionId: z.string(),
  runId: z.string().optional(),
  intoSessionId: z.string(),
  outcome: z.enum(['merged', 'up-to-date', 'conflicted', 'failed']),
  commit: z.string().optional(),
  files: z.array(fileChange),
  conflicts: z.array(z.string()),
  error: z.string().optional(),
});
const approval = z.object({
  approvalId: z.string(),
  decision: z.string(),
  scope: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decider: z.object({ kind: z.string(), id: z.string(), name: z.string() }).passthrough().nullable(),
  decidedAt: z.string().nullable(),
});
const lineStep = z.object({
  sessionId: z.string(),
  runId: z.string().optional(),
  agentName: z.string().optional(),
  cause: z.enum(['tool', 'recovered', 'before-merge', 'turn-end']),
  toolCallId: z.string().optional(),
  toolName: z.string().optional(),
  modelCallId: z.string().optional(),
  approval: approval.optional(),
  commit: z.string(),
  checkpointedAt: z.string(),
});
const blame = z.object({
  sessionId: z.string(),
  runId: z.string().optional(),
  path: z.string(),
  baseCommit: z.string(),
  lines: z.array(
    z.object({
      line: z.number().int(),
      text: z.string(),
      origin: z.enum(['base', 'committed', 'uncommitted']),
      commit: z.string().optional(),
      step: lineStep.optional(),
    }),
  ),
  steps: z.array(lineStep),
});
const checkpoint = z.object({
  sessionId: z.string(),
  runId: z.string().optional(),
  commit: z.string(),
  files: z.array(fileChange),
  cause: z.enum(['tool', 'recovered', 'before-merge', 'turn-end']),
  toolCallId: z.string().optional(),
  toolName: z.string().optional(),
  agentName: z.string().optional(),
  modelResponseId: z.string().optional(),
  modelCallId: z.string().optional(),
  approval: approval.optional(),
});
const changes = z.object({
  sessionId: z.string(),
  runId: z.string().optional(),
  repository: z.string(),
  branch: z.string(),
  baseCommit: z.string(),
  scope: z.enum(['own', 'subtree', 'against']),
  againstRunId: z.string().optional(),
  files: z.array(fileChange),
  merges: z.array(merge),
});
const RUN_THREAD = `sub-agent-${RUN_ID}`;
const changesExample = (sessionId: string, runId?: string) => ({
  sessionId,
  ...(runId ? { runId } : {}),
  repository: '/srv/repos/shop',
  branch: `switchboard/${sessionId}`,
  baseCommit: COMMIT,
  scope: runId ? 'own' : 'subtree',
  files: [{ path: 'src/cart.ts', status: 'modified', additions: 12, deletions: 3 }],
  merges: [],
});
const historyExample = (sessionId: string, runId?: string) => ({
  checkpoints: [
    {
      sessionId,
      ...(runId ? { runId } : {}),
      commit: COMMIT,
      files: [{ path: 'src/cart.ts', status: 'modified', additions: 12, deletions: 3 }],
      cause: 'tool',
      toolCallId: 'call_2_edit',
      toolName: 'edit',
    },
  ],
  merges: [],
});
const STEP_EXAMPLE = {
  sessionId: RUN_THREAD,
  runId: RUN_ID,
  agentName: 'writer',
  cause: 'tool',
  toolCallId: 'call_2_edit',
  toolName: 'edit',
  modelCallId: '01a2b3c4-d5e6-7f80-9a1b-2c3d4e5f6a7b',
  approval: {
    approvalId: '01a2b3c4-0000-7f80-9a1b-2c3d4e5f6a7b',
    decision: 'approve',
    scope: 'once',
    decidedBy: 'console',
    decider: { kind: 'user', id: 'ada', name: 'Ada' },
    decidedAt: '2026-12-07T10:00:03.000Z',
  },
  commit: COMMIT,
  checkpointedAt: '2026-12-07T10:00:04.000Z',
};
const blameExample = (sessionId: string, runId?: string) => ({
  sessionId,
  ...(runId ? { runId } : {}),
  path: 'src/cart.ts',
  baseCommit: '9b8a7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b',
  lines: [
    { line: 1, text: "import { sum } from './sum';", origin: 'base' },
    { line: 2, text: 'export const total = sum(items);', origin: 'committed', commit: COMMIT, step: STEP_EXAMPLE },
  ],
  steps: [STEP_EXAMPLE],
});
const DIFF =
  'diff --git a/src/cart.ts b/src/cart.ts\n--- a/src/cart.ts\n+++ b/src/cart.ts\n@@ -1 +1 @@\n-export const total = 0;\n+export const total = sum(items);\n';

/** What the workspaces' routes answer (issue 42). */
export const WORKSPACES_ANSWERS: ControllerAnswers<WorkspacesController> = {
  answers: {
    sessionChanges: {
      status: 200,
      description: 'The files the session’s worktree changed against its base',
      schema: changes,
      example: changesExample(SESSION_ID),
    },
    sessionDiff: { status: 200, description: 'A unified diff', contentType: 'text/x-diff', schema: z.string(), example: DIFF },
    sessionCheckpoints: {
      status: 200,
      description: 'Checkpoints and merges, oldest first',
      schema: z.object({ checkpoints: z.array(checkpoint), merges: z.array(merge) }),
      example: historyExample(SESSION_ID),
    },
    sessionBlame: {
      status: 200,
      description: 'Each line of the file and the step that last wrote it',
      schema: blame,
      example: blameExample(SESSION_ID),
    },
    runChanges: {
      status: 200,
      description: 'The files the run changed',
      schema: changes,
      example: changesExample(RUN_THREAD, RUN_ID),
      pathParameters: { id: uuidParameter(RUN_ID) },
    },
    runDiff: {
      status: 200,
      description: 'A unified diff',
      contentType: 'text/x-diff',
      schema: z.string(),
      example: DIFF,
      pathParameters: { id: uuidParameter(RUN_ID) },
    },
    runBlame: {
      status: 200,
      description: 'Each line of the file and the step that last wrote it',
      schema: blame,
      example: blameExample(RUN_THREAD, RUN_ID),
      pathParameters: { id: uuidParameter(RUN_ID) },
    },
    runCheckpoints: {
      status: 200,
      description: 'Checkpoints and merges, oldest first',
      schema: z.object({ checkpoints: z.array(checkpoint), merges: z.array(merge) }),
      example: historyExample(RUN_THREAD, RUN_ID),
      pathParameters: { id: uuidParameter(RUN_ID) },
    },
  },
  pathParameters: { id: uuidParameter(SESSION_ID) },
};
