import { z } from 'zod';
import { type ControllerAnswers, AT, LATER, iso, nullable } from '../../common';
import type { SignInSessionsController } from './sign-in-sessions.controller';

const SIGN_IN_SESSION_ID = '5d2c7e1a-90b4-4f3e-a1c8-7b6d5e4f3a2b';
const signInSessionView = z.object({
  id: z.string().describe('The first 128 bits of the SHA-256 the table keeps of the cookie, written as a UUID (never the cookie)'),
  subject: z.string(),
  name: z.string(),
  role: z.enum(['viewer', 'operator', 'approver', 'admin']),
  createdAt: iso,
  expiresAt: iso,
  revokedAt: nullable(iso),
  state: z.enum(['active', 'expired', 'revoked']),
});
const signInSessionExample = {
  id: SIGN_IN_SESSION_ID,
  subject: 'https://id.example.com#ada',
  name: 'Ada Lovelace',
  role: 'approver',
  createdAt: AT,
  expiresAt: '2026-11-28T02:03:12.345Z',
  revokedAt: null,
  state: 'active',
};

/** What the sign-in sessions' routes answer. */
export const SIGN_IN_SESSIONS_ANSWERS: ControllerAnswers<SignInSessionsController> = {
  answers: {
    list: {
      status: 200,
      description: "People's sign-in sessions, newest first",
      schema: z.object({ sessions: z.array(signInSessionView) }),
      example: { sessions: [signInSessionExample] },
    },
    revoke: {
      status: 200,
      description: 'The session as revoked: its cookie is 401 from the next request on',
      schema: signInSessionView,
      example: { ...signInSessionExample, revokedAt: LATER, state: 'revoked' },
    },
  },
  pathParameters: { id: { example: SIGN_IN_SESSION_ID } },
};
