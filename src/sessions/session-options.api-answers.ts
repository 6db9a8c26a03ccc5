import { z } from 'zod';
import { type ControllerAnswers, nullable } from '../common';
import type { SessionOptionsController } from './session-options.controller';

/** What GET /api/session-options answers. */
export const SESSION_OPTIONS_ANSWERS: ControllerAnswers<SessionOptionsController> = {
  answers: {
    get: {
      status: 200,
      description: 'What a session may ask for here: each permission kind (and what opens a refused one), budget maxima, the delegation tools',
      schema: z.object({
        permissionKinds: z.array(
          z.object({
            kind: z.string(),
            description: z.string(),
            allowed: z.boolean(),
            refusedReason: nullable(z.string()),
            enabledBy: nullable(z.string()),
            note: nullable(z.string()),
          }),
        ),
        budgetLimits: z.array(z.object({ name: z.string(), max: z.number().int() })),
        delegationTools: z.array(z.string()),
        approvalTimeoutMs: z.number().int(),
        workingDirectory: z.string(),
      }),
      example: {
        permissionKinds: [
          { kind: 'read', description: 'read files', allowed: true, refusedReason: null, enabledBy: null, note: 'stays inside the working directory' },
          {
            kind: 'shell',
            description: 'run shell commands on this host',
            allowed: false,
            refusedReason: 'shell acts on this host; the operator has not allowed that',
            enabledBy: 'SWITCHBOARD_ALLOW_HOST_PERMISSIONS=true',
            note: null,
          },
        ],
        budgetLimits: [{ name: 'max_runs', max: 1000000000 }],
        delegationTools: ['agent_run', 'agent_stop', 'agent_output'],
        approvalTimeoutMs: 300000,
        workingDirectory: '/srv/switchboard/workspace',
      },
    },
  },
};
