import { v5 as uuidv5, v7 as uuidv7 } from 'uuid';

/**
 * The namespace of due firings' ids. Fixed forever: every instance derives the same id for the same
 * schedule and due time, so their first appends to `schedule_firing-<id>` conflict and one wins.
 */
export const SCHEDULE_FIRING_NAMESPACE = '20227b90-a874-444b-8059-2f967d924ea5';

/** The id of the firing of `scheduleId` due at `dueAt`: the same on every instance. */
export function dueFiringId(scheduleId: string, dueAt: Date): string {
  return uuidv5(`${scheduleId}@${dueAt.toISOString()}`, SCHEDULE_FIRING_NAMESPACE);
}

/** "Run now" is asked for once: a fresh id, never one a due firing could have. */
export function manualFiringId(): string {
  return uuidv7();
}
