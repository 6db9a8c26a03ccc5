import { z } from 'zod';
import { printableName } from '../common';
import { budgetApiInputSchema, permissionPolicySchema, workspaceRequestSchema } from '../sessions';
import { CATCH_UP_POLICIES, OVERLAP_POLICIES } from './schedule.events';

/**
 * Bodies of the schedule commands (the JSON API's camelCase), shared by REST and GraphQL. The shape is
 * checked here (400: an unknown key, a wrong type); what the values mean (a cron that does not parse, a
 * time zone that does not exist, an empty prompt) is `scheduleProblems`' (422 with every problem).
 */
const text = (max: number) => z.string().max(max);

const scheduleFields = {
  name: printableName(text(1000)),
  agentId: z.string().min(1).max(64),
  prompt: z.string(),
  model: z.string().min(1).max(200).nullable(),
  permissionPolicy: permissionPolicySchema.nullable(),
  budget: budgetApiInputSchema.nullable(),
  workspace: workspaceRequestSchema.nullable(),
  cron: text(200).nullable(),
  at: text(100).nullable(),
  timeZone: text(100),
  endsAt: text(100).nullable(),
  enabled: z.boolean(),
  overlap: z.enum(OVERLAP_POLICIES),
  catchUp: z.enum(CATCH_UP_POLICIES),
};

/** `POST /api/schedules`: agentId, prompt and one of cron / at; the rest has defaults. */
export const createScheduleSchema = z
  .object({
    name: scheduleFields.name.optional(),
    agentId: scheduleFields.agentId,
    prompt: scheduleFields.prompt,
    model: scheduleFields.model.optional(),
    permissionPolicy: scheduleFields.permissionPolicy.optional(),
    budget: scheduleFields.budget.optional(),
    workspace: scheduleFields.workspace.optional(),
    cron: scheduleFields.cron.optional(),
    at: scheduleFields.at.optional(),
    timeZone: scheduleFields.timeZone.default('UTC'),
    endsAt: scheduleFields.endsAt.optional(),
    enabled: scheduleFields.enabled.default(true),
    overlap: scheduleFields.overlap.default('skip'),
    catchUp: scheduleFields.catchUp.default('skip'),
  })
  .strict();
export type ScheduleInput = z.infer<typeof createScheduleSchema>;

/**
 * `PATCH /api/schedules/:id`: the fields to change (null clears an optional one; cron: null with an at
 * switches to a one-off). `enabled` alone only turns the schedule on or off.
 */
export const updateScheduleSchema = z.object(scheduleFields).partial().strict();
export type ScheduleChanges = z.infer<typeof updateScheduleSchema>;

/** `POST /api/schedules/preview`: the timing an editor holds, saved or not. */
export const previewScheduleSchema = z
  .object({
    cron: scheduleFields.cron.optional(),
    at: scheduleFields.at.optional(),
    timeZone: scheduleFields.timeZone.default('UTC'),
    endsAt: scheduleFields.endsAt.optional(),
  })
  .strict();
export type PreviewInput = z.infer<typeof previewScheduleSchema>;
