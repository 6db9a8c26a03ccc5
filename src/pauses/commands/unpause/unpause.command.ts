import { Command } from '@nestjs/cqrs';
import type { PauseTarget } from '../../../event-store';

export interface UnpauseResult {
  target: PauseTarget;
  id: string;
  /** How long it was paused. */
  pausedMs: number;
  /** Steps that were waiting under it and go on now, in the order they came (this instance's). */
  released: number;
}

/** Releases a paused run or session: what waited goes on in the order it came; 409 when it is not paused. */
export class UnpauseWork extends Command<UnpauseResult> {
  constructor(
    readonly target: PauseTarget,
    readonly id: string,
    readonly unpausedBy: 'console' | 'api',
  ) {
    super();
  }
}
