import { Command } from '@nestjs/cqrs';
import { z } from 'zod';
import type { PauseTarget } from '../../../event-store';
import type { PauseView } from '../../pause-holds';

export const pauseSchema = z
  .object({
    /** Why, for the audit and the views. */
    reason: z.string().trim().min(1).max(2000).optional(),
  })
  .strict();

/** What a pause answers: the target and the pause now over it. */
export interface PauseResult {
  target: PauseTarget;
  id: string;
  pause: PauseView;
}

/** Holds a running run's subtree, or a session and everything it started, at its next step; 404 unknown, 409 not running or already paused. */
export class PauseWork extends Command<PauseResult> {
  constructor(
    readonly target: PauseTarget,
    readonly id: string,
    readonly pausedBy: 'console' | 'api',
    readonly reason?: string,
  ) {
    super();
  }
}
