import { z } from 'zod';
import { type ControllerAnswers, SESSION_ID, RUN_ID, AT, KEY_ID, iso, nullable, uuidParameter, actorView } from '../common';
import type { PausesController } from './pauses.controller';

const pauseView = z.object({
  since: iso,
  by: z.string(),
  actor: actorView,
  target: z.enum(['run', 'session']),
  runId: z.string().optional(),
  sessionId: z.string().optional(),
  reason: z.string().optional(),
  held: z.number().int(),
});
function pauseAnswer(target: 'run' | 'session', id: string) {
  return {
    schema: z.object({ target: z.enum(['run', 'session']), id: z.string(), pause: pauseView }),
    example: {
      target,
      id,
      pause: {
        since: AT,
        by: 'console',
        actor: { kind: 'user', id: 'https://idp.example.com#ada', name: 'Ada Lovelace', via: 'console' },
        target,
        ...(target === 'run' ? { runId: id } : { sessionId: id }),
        reason: 'check it first',
        held: 0,
      },
    },
  };
}
function unpauseAnswer(target: 'run' | 'session', id: string) {
  return {
    schema: z.object({ target: z.enum(['run', 'session']), id: z.string(), pausedMs: z.number(), released: z.number().int() }),
    example: { target, id, pausedMs: 42_000, released: 3 },
  };
}

/** What the pauses' routes answer (issue 26); a run's pause is at /api/runs/:id. */
export const PAUSES_ANSWERS: ControllerAnswers<PausesController> = {
  answers: {
    sessionPause: {
      status: 200,
      description: 'The pause over the session, null when none',
      schema: z.object({ pause: nullable(pauseView) }),
      example: {
        pause: {
          since: AT,
          by: 'api',
          actor: { kind: 'key', id: KEY_ID, name: 'nightly-ci', via: 'api' },
          target: 'session',
          sessionId: SESSION_ID,
          held: 2,
        },
      },
    },
    pauseRun: {
      status: 200,
      description: 'Paused: the run and its subtree wait at their next step',
      ...pauseAnswer('run', RUN_ID),
      pathParameters: { id: uuidParameter(RUN_ID) },
      request: { reason: 'check its plan first' },
    },
    unpauseRun: {
      status: 200,
      description: 'Unpaused: what waited goes on in the order it came',
      ...unpauseAnswer('run', RUN_ID),
      pathParameters: { id: uuidParameter(RUN_ID) },
    },
    pauseSession: {
      status: 200,
      description: 'Paused: the session, its CLI sub-agents and every run it started wait at their next step',
      ...pauseAnswer('session', SESSION_ID),
      request: { reason: 'check its plan first' },
    },
    unpauseSession: {
      status: 200,
      description: 'Unpaused: what waited goes on in the order it came',
      ...unpauseAnswer('session', SESSION_ID),
    },
  },
  pathParameters: { id: uuidParameter(SESSION_ID) },
};
