import { z } from 'zod';

/** What a person says to a running agent: as long as a prompt may be. */
export const steerMessage = z
  .string({ message: 'message is required: what to tell the agent' })
  .trim()
  .min(1, 'message must not be empty')
  .max(200_000, 'message must be at most 200000 characters');

/** POST /api/sessions/:id/steer: `subagentId` names one of the session's CLI sub-agents (a launch's childSessionId). */
export const steerSchema = z.object({ message: steerMessage, subagentId: z.string().min(1).max(200).optional() }).strict();

/** POST /api/runs/:id/steer: a run is steered through its own session's main agent. */
export const steerRunSchema = z.object({ message: steerMessage }).strict();
