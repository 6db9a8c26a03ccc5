import { Command } from '@nestjs/cqrs';
import { z } from 'zod';
import type { ApprovalView } from '../../approval-view';

export const decideApprovalSchema = z
  .object({
    decision: z.enum(['approve', 'deny']),
    /** session: approve that kind (and, for custom tools, that tool) for the rest of the session. */
    scope: z.enum(['once', 'session']).default('once'),
    /** The model reads it when the request is denied. */
    reason: z.string().max(4000).optional(),
  })
  .strict();

export type DecideApprovalInput = z.infer<typeof decideApprovalSchema>;

/** A person's decision on a pending approval: the item after it; 404 unknown, 409 already decided or expired. */
export class DecideApproval extends Command<ApprovalView> {
  constructor(
    readonly approvalId: string,
    readonly input: DecideApprovalInput,
    readonly decidedBy: 'console' | 'api',
  ) {
    super();
  }
}
