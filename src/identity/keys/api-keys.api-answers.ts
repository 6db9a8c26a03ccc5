import { z } from 'zod';
import { type ControllerAnswers, AT, LATER, iso, nullable } from '../../common';
import type { ApiKeysController } from './api-keys.controller';

const apiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(['viewer', 'operator', 'approver', 'admin']),
  prefix: z.string(),
  expiresAt: nullable(iso),
  createdBy: z.string(),
  createdAt: iso,
  revokedAt: nullable(iso),
  revokedBy: nullable(z.string()),
  lastUsedAt: nullable(iso),
});
const apiKeyExample = {
  id: '0192f3a4-bbbb-7abc-8def-0123456789ab',
  name: 'nightly-ci',
  role: 'operator',
  prefix: 'sbk_Q2hhbmdl',
  expiresAt: null,
  createdBy: 'operator',
  createdAt: AT,
  revokedAt: null,
  revokedBy: null,
  lastUsedAt: LATER,
};

/** What the named keys' routes answer (issue 27). */
export const API_KEYS_ANSWERS: ControllerAnswers<ApiKeysController> = {
  answers: {
    create: {
      status: 201,
      description: 'The key (shown this once) and its record',
      schema: z.object({ key: z.string().startsWith('sbk_'), apiKey: apiKeyView }),
      example: { key: 'sbk_Q2hhbmdlIHRoaXMgZXhhbXBsZSBrZXkgYmVmb3JlIHVzZQ', apiKey: { ...apiKeyExample, lastUsedAt: null } },
      request: { name: 'nightly-ci', role: 'operator', expiresAt: '2027-06-30T00:00:00Z' },
    },
    list: {
      status: 200,
      description: 'Every named key, newest first',
      schema: z.object({ keys: z.array(apiKeyView) }),
      example: { keys: [apiKeyExample] },
    },
    revoke: {
      status: 200,
      description: 'The key as revoked',
      schema: apiKeyView,
      example: { ...apiKeyExample, revokedAt: LATER, revokedBy: 'operator' },
    },
  },
};
