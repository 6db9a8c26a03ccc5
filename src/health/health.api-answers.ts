import { z } from 'zod';
import type { ControllerAnswers } from '../common';
import type { HealthController } from './health.controller';

const healthSummary = z.object({ status: z.string(), checks: z.record(z.string(), z.enum(['ok', 'failing'])).optional() }).loose();

/** What the health routes answer. */
export const HEALTH_ANSWERS: ControllerAnswers<HealthController> = {
  answers: {
    health: {
      status: 200,
      description: 'With the token (or none configured): database, projections, CLI and instances in detail; without it: ok or failing per check',
      schema: healthSummary,
      example: { status: 'ok', checks: { database: 'ok', migrations: 'ok', projections: 'ok', copilotCli: 'ok', modelProvider: 'ok' } },
    },
    live: {
      status: 200,
      description: 'Serving HTTP',
      schema: z.object({ status: z.literal('live'), pid: z.number().optional(), uptimeSeconds: z.number().optional() }),
      example: { status: 'live', pid: 4242, uptimeSeconds: 3600 },
    },
    ready: {
      status: 200,
      description: 'Ready (503 with the failing checks otherwise)',
      schema: z.object({ status: z.string(), failing: z.array(z.object({ check: z.string() }).loose()), checks: z.record(z.string(), z.unknown()) }),
      example: { status: 'ready', failing: [], checks: { database: 'ok', migrations: 'ok', projections: 'ok', copilotCli: 'ok', modelProvider: 'ok' } },
    },
  },
};
