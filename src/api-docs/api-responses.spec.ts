import { createSessionSchema, changeSubAgentsSchema } from '../sessions/session-config';
import { agentInputSchema } from '../agents/agent-definition';
import { decideApprovalSchema } from '../approvals/commands/decide-approval/decide-approval.command';
import { userInputAnswerSchema } from '../tool-dispatch/commands/answer-user-input/answer-user-input.command';
import { resumeRunSchema, startRunSchema, stopRunSchema } from '../delegation/run-requests';
import { createApiKeySchema } from '../identity/keys/commands/create-api-key/create-api-key.command';
import { createScheduleSchema, previewScheduleSchema, updateScheduleSchema } from '../schedules/schedule-requests';
import { DOCUMENTED_ANSWERS, REQUEST_EXAMPLES } from './api-responses';
import type { ZodType } from 'zod';

/** The OpenAPI examples are what the service would send and take: each parses with its schema. */
describe('the documented examples', () => {
  it.each(Object.entries(DOCUMENTED_ANSWERS))('%s: the answer example matches its schema', (_operation, answer) => {
    expect(answer.schema.safeParse(answer.example).error?.issues ?? []).toEqual([]);
  });

  // The request schemas the routes validate with (their ZodValidationPipes).
  const requestSchemas: Record<string, ZodType> = {
    SessionsController_create: createSessionSchema,
    SessionsController_change: changeSubAgentsSchema,
    AgentsController_create: agentInputSchema,
    AgentsController_update: agentInputSchema,
    ApprovalsController_decide: decideApprovalSchema,
    SessionRequestsController_answer: userInputAnswerSchema,
    RunsController_start: startRunSchema,
    RunsController_stop: stopRunSchema,
    RunsController_resume: resumeRunSchema,
    ApiKeysController_create: createApiKeySchema,
    SchedulesController_create: createScheduleSchema,
    SchedulesController_preview: previewScheduleSchema,
    SchedulesController_update: updateScheduleSchema,
  };
  it.each(Object.entries(requestSchemas))('%s: the request example is a body the route takes', (operation, schema) => {
    expect(schema.safeParse(REQUEST_EXAMPLES[operation]).error?.issues ?? []).toEqual([]);
  });
});
