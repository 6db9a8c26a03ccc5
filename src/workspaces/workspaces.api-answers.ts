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
const checkpoint = z.object({
  sessionId: z.string(),
  runId: z.string().optional(),
  commit: z.string(),
  files: z.array(fileChange),
  cause: z.enum(['tool', 'recovered', 'before-merge', 'turn-end']),
  toolCallId: z.string().optional(),
  toolName: z.string().optional(),
  modelCallId: z.string().optional(),
});
const changes = z.object({
  sessionId: z.string(),
  runId: z.string().optional(),
  repository: z.string(),
  branch: z.string(),
  baseCommit: z.string(),
  scope: z.enum(['own', 'subtree']),
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
