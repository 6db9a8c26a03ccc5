import { z } from 'zod';
import { type ControllerAnswers, RUN_ID, AT, iso, nullable, uuidParameter } from '../common';
import type { SchedulesController } from './schedules.controller';

/** issue 30: schedules and their firings (src/schedules/schedule-view.ts). */
const SCHEDULE_ID = '0192f3a4-eeee-7abc-8def-0123456789ab';
const FIRING_ID = '6f1c2d3e-4b5a-5c6d-8e7f-0a1b2c3d4e5f';
const firingView = z.object({
  id: z.string(),
  scheduleId: z.string(),
  dueAt: iso,
  firedAt: nullable(iso),
  trigger: z.enum(['cron', 'at', 'catch_up', 'manual']),
  status: z.enum(['starting', 'started', 'skipped', 'retrying', 'failed']),
  runId: nullable(z.string()),
  runStatus: nullable(z.enum(['running', 'completed', 'failed', 'stopped', 'interrupted'])),
  outcome: z.string().describe("the run's status once started, else the firing's status"),
  attempt: z.number().int(),
  retryAt: nullable(iso),
  missedCount: z.number().int(),
  reason: nullable(z.object({ code: z.string(), message: z.string() })).describe('why it was skipped (overlap, missed) or failed (unknown_agent, ...)'),
});
const firingExample = {
  id: FIRING_ID,
  scheduleId: SCHEDULE_ID,
  dueAt: '2026-11-27T14:00:00.000Z',
  firedAt: AT,
  trigger: 'cron',
  status: 'started',
  runId: RUN_ID,
  runStatus: 'completed',
  outcome: 'completed',
  attempt: 1,
  retryAt: null,
  missedCount: 0,
  reason: null,
};
const scheduleView = z.object({
  id: z.string(),
  name: z.string(),
  agentId: z.string(),
  prompt: z.string(),
  model: nullable(z.string()),
  permissionPolicy: nullable(z.object({}).loose()),
  budget: nullable(
    z.object({
      maxTokens: nullable(z.number()),
      maxToolCalls: nullable(z.number()),
      maxRuns: nullable(z.number()),
      maxDurationMs: nullable(z.number()),
      maxCost: nullable(z.number()),
    }),
  ),
  workspace: nullable(z.object({ repository: z.string(), ref: z.string().optional(), merge: z.enum(['auto', 'manual']).optional() })),
  cron: nullable(z.string()),
  at: nullable(iso),
  timeZone: z.string(),
  endsAt: nullable(iso),
  enabled: z.boolean(),
  overlap: z.enum(['skip', 'allow']),
  catchUp: z.enum(['skip', 'last']),
  version: z.number().int().describe('send as If-Match to PATCH or DELETE'),
  createdAt: iso,
  updatedAt: iso,
  nextFiringAt: nullable(iso),
  nextFirings: z.array(iso).describe('the next five due times (GET of one schedule; [] in lists)'),
  lastFiring: nullable(firingView),
});
const scheduleExample = {
  id: SCHEDULE_ID,
  name: 'Nightly review',
  agentId: 'code-reviewer',
  prompt: "Review yesterday's changes on main and list the problems you find.",
  model: null,
  permissionPolicy: null,
  budget: { maxTokens: 200000, maxToolCalls: null, maxRuns: 10, maxDurationMs: null, maxCost: null },
  workspace: null,
  cron: '0 2 * * *',
  at: null,
  timeZone: 'Europe/Berlin',
  endsAt: null,
  enabled: true,
  overlap: 'skip',
  catchUp: 'skip',
  version: 1,
  createdAt: AT,
  updatedAt: AT,
  nextFiringAt: '2026-11-28T01:00:00.000Z',
  nextFirings: [
    '2026-11-28T01:00:00.000Z',
    '2026-11-29T01:00:00.000Z',
    '2026-11-30T01:00:00.000Z',
    '2026-12-01T01:00:00.000Z',
    '2026-12-02T01:00:00.000Z',
  ],
  lastFiring: firingExample,
};

/** What the schedules' routes answer (issue 30). */
export const SCHEDULES_ANSWERS: ControllerAnswers<SchedulesController> = {
  answers: {
    create: {
      status: 201,
      description: 'The schedule (version 1)',
      schema: scheduleView,
      example: scheduleExample,
      request: {
        name: 'Nightly review',
        agentId: 'code-reviewer',
        prompt: "Review yesterday's changes on main and list the problems you find.",
        cron: '0 2 * * *',
        timeZone: 'Europe/Berlin',
        budget: { maxTokens: 200000, maxRuns: 10 },
      },
    },
    preview: {
      status: 200,
      description: 'The next five due times, or the problems of the timing (never refused for them)',
      schema: z.object({ nextFirings: z.array(iso), problems: z.array(z.string()) }),
      example: { nextFirings: scheduleExample.nextFirings, problems: [] },
      request: { cron: '0 2 * * 1-5', timeZone: 'Europe/Berlin' },
    },
    list: {
      status: 200,
      description: 'Schedules in created order',
      schema: z.object({ schedules: z.array(scheduleView), nextCursor: nullable(z.string()) }),
      example: { schedules: [{ ...scheduleExample, nextFirings: [] }], nextCursor: null },
    },
    get: { status: 200, description: 'The schedule', schema: scheduleView, example: scheduleExample },
    update: {
      status: 200,
      description: 'The schedule as stored',
      schema: scheduleView,
      example: { ...scheduleExample, version: 2 },
      request: { enabled: false },
    },
    delete: { status: 204, description: 'Deleted (no body)', contentType: 'text/plain', schema: z.literal(''), example: '' },
    run: {
      status: 202,
      description: 'The manual firing: its run is starting (follow runId), or why it did not start',
      schema: firingView,
      example: {
        ...firingExample,
        id: '0192f3a4-ffff-7abc-8def-0123456789ab',
        trigger: 'manual',
        status: 'starting',
        runStatus: null,
        outcome: 'starting',
      },
    },
    firings: {
      status: 200,
      description: 'Firings, newest first',
      schema: z.object({ firings: z.array(firingView), nextCursor: nullable(z.string()) }),
      example: { firings: [firingExample], nextCursor: null },
    },
  },
  pathParameters: { id: uuidParameter(SCHEDULE_ID) },
};
