import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, request } from '../../api/client';
import { ForkRunMutation, PauseRunMutation, ReplayRunMutation, ResumeRunMutation, StopRunMutation, UnpauseRunMutation } from '../operations';

export type RunAction = 'stop' | 'resume' | 'pause' | 'unpause' | 'replay' | 'fork';

/** Stop (after a confirmation naming the running descendants) and resume, with what the service said. */
export function useRunActions(runId: string, onActed: () => void) {
  const [confirmStop, setConfirmStop] = useState<number | undefined>();
  const [acting, setActing] = useState<RunAction | undefined>();
  const [actionError, setActionError] = useState<ApiError | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const navigate = useNavigate();

  /** issue 26: a replay or fork is a new run: the page moves to it. */
  const start = async (action: 'replay' | 'fork', fork?: { fromModelCall: string; message?: string }) => {
    setActing(action);
    setActionError(undefined);
    setDone(undefined);
    try {
      const runIdOfNew =
        action === 'replay'
          ? (await request(ReplayRunMutation, { runId })).replayRun.runId
          : (await request(ForkRunMutation, { runId, fromModelCall: fork?.fromModelCall ?? '', message: fork?.message || null })).forkRun.runId;
      await navigate(`/runs/${runIdOfNew}`);
    } catch (error) {
      setActionError(error instanceof ApiError ? error : new ApiError(String(error), 'error', 0));
    } finally {
      setActing(undefined);
    }
  };

  const act = async (action: RunAction) => {
    setConfirmStop(undefined);
    setActing(action);
    setActionError(undefined);
    setDone(undefined);
    try {
      if (action === 'stop') {
        const { agentStop } = await request(StopRunMutation, { runId, reason: 'stopped from the console' });
        setDone(`Stopped ${agentStop.stoppedRuns.length} run${agentStop.stoppedRuns.length === 1 ? '' : 's'}.`);
      } else if (action === 'pause') {
        await request(PauseRunMutation, { runId, reason: 'paused from the console' });
        setDone('Paused: the run and every run under it wait at their next step.');
      } else if (action === 'unpause') {
        const { unpauseRun } = await request(UnpauseRunMutation, { runId });
        setDone(
          `Unpaused after ${Math.round(unpauseRun.pausedMs / 1000)} s: ${unpauseRun.released} waiting step${unpauseRun.released === 1 ? '' : 's'} went on.`,
        );
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
    replay: () => start('replay'),
    fork: (fromModelCall: string, message?: string) => start('fork', { fromModelCall, message }),
  };
}
