import { useState } from 'react';
import { ApiError, request } from '../../api/client';
import { ResumeRunMutation, StopRunMutation } from '../operations';

export type RunAction = 'stop' | 'resume';

/** Stop (after a confirmation naming the running descendants) and resume, with what the service said. */
export function useRunActions(runId: string, onActed: () => void) {
  const [confirmStop, setConfirmStop] = useState<number | undefined>();
  const [acting, setActing] = useState<RunAction | undefined>();
  const [actionError, setActionError] = useState<ApiError | undefined>();
  const [done, setDone] = useState<string | undefined>();

  const act = async (action: RunAction) => {
    setConfirmStop(undefined);
    setActing(action);
    setActionError(undefined);
    setDone(undefined);
    try {
      if (action === 'stop') {
        const { agentStop } = await request(StopRunMutation, { runId, reason: 'stopped from the console' });
        setDone(`Stopped ${agentStop.stoppedRuns.length} run${agentStop.stoppedRuns.length === 1 ? '' : 's'}.`);
      } else {
        const { resumeRun } = await request(ResumeRunMutation, { runId });
        setDone(`Resumed: it is ${resumeRun.status} again.`);
      }
    } catch (error) {
      setActionError(error instanceof ApiError ? error : new ApiError(String(error), 'error', 0));
    } finally {
      setActing(undefined);
      onActed();
    }
  };

  return {
    acting,
    actionError,
    done,
    /** The running descendants the confirmation names; undefined: no confirmation open. */
    confirmStop,
    askStop: (runningDescendants: number) => setConfirmStop(runningDescendants),
    cancelStop: () => setConfirmStop(undefined),
    act,
  };
}
