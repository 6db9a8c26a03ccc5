import { z } from 'zod';
import type { ControllerAnswers } from '../../common';
import type { MeController } from './me.controller';

const principalView = z.object({
  kind: z.enum(['user', 'key', 'operator', 'local']),
  id: z.string(),
  name: z.string(),
  role: z.enum(['viewer', 'operator', 'approver', 'admin']),
  via: z.enum(['cookie', 'bearer', 'none']),
  may: z.array(z.enum(['read', 'operate', 'approve', 'administer'])).describe('what the role may do'),
});

/** What GET /api/me answers. */
export const ME_ANSWERS: ControllerAnswers<MeController> = {
  answers: {
    me: {
      status: 200,
      description: 'Who calls and with which role',
      schema: principalView,
      example: { kind: 'key', id: '0192f3a4-bbbb-7abc-8def-0123456789ab', name: 'nightly-ci', role: 'operator', via: 'bearer', may: ['read', 'operate'] },
    },
  },
};
