import { LiveSessionLookup, SessionNotFoundError, SessionNotLiveError } from '../sessions';
import type { RunState } from './run.decider';

/**
 * A run is held where its session (`sub-agent-<runId>`) is. A command on a run another running
 * instance holds is a 409 naming that instance (`owned_by_other_instance`, decided by
 * LiveSessionLookup, the one place); the session of a run whose instance is gone is taken here, so the
 * run can be resumed on this instance.
 */
export async function holdRunSession(sessions: LiveSessionLookup, run: RunState): Promise<void> {
  try {
    await sessions.get(run.started.threadId, `Run ${run.started.runId}`);
  } catch (error) {
    // No session yet (the run never started one), or one that is over: the run's own state answers.
    if (error instanceof SessionNotFoundError || error instanceof SessionNotLiveError) return;
    throw error;
  }
}
