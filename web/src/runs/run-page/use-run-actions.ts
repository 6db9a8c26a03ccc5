import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { ApiError } from '../../api/client';
import { asApiError } from '../../api/mutation';
import { useForkRun, usePauseRun, useReplayRun, useResumeRun, useStopRun, useUnpauseRun } from '../mutations';

export type RunAction = 'stop' | 'resume' | 'pause' | 'unpause' | 'replay' | 'fork';

/**
 * Stop (after a confirmation naming the running descendants) and resume, with what the service said; the
 * header they change is refreshed by the mutations themselves (../mutations).
 */
export function useRunActions(runId: string) {
  const [confirmStop, setConfirmStop] = useState<number | undefined>();
  const [acting, setActing] = useState<RunAction | undefined>();
  const [actionError, setActionError] = useState<ApiError | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const navigate = useNavigate();
  const writes = {
    stop: useStopRun(),
    pause: usePauseRun(),
    unpause: useUnpauseRun(),
    resume: useResumeRun(),
    replay: useReplayRun(),
    fork: useForkRun(),
  };

  /** issue 26: a replay or fork is a new run: the page moves to it. */
  const start = async (action: 'replay' | 'fork', fork?: { fromModelCall: string; message?: string }) => {
    setActing(action);
    setActionError(undefined);
    setDone(undefined);
    try {
      const runIdOfNew =
        action === 'replay'
          ? (await writes.replay.mutateAsync({ runId })).replayRun.runId
          : (await writes.fork.mutateAsync({ runId, fromModelCall: fork?.fromModelCall ?? '', message: fork?.message || null })).forkRun.runId;
      await navigate(`/runs/${runIdOfNew}`);
    } catch (error) {
      setActionError(asApiError(error));
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
        const { agentStop } = await writes.stop.mutateAsync({ runId, reason: 'stopped from the console' });
        setDone(`Stopped ${agentStop.stoppedRuns.length} run${agentStop.stoppedRuns.length === 1 ? '' : 's'}.`);
      } else if (action === 'pause') {
        await writes.pause.mutateAsync({ runId, reason: 'paused from the console' });
        setDone('Paused: the run and every run under it wait at their next step.');
      } else if (action === 'unpause') {
        const { unpauseRun } = await writes.unpause.mutateAsync({ runId });
        setDone(
          `Unpaused after ${Math.round(unpauseRun.pausedMs / 1000)} s: ${unpauseRun.released} waiting step${unpauseRun.released === 1 ? '' : 's'} went on.`,
        );
      } else {
        const { resumeRun } = await writes.resume.mutateAsync({ runId });
        setDone(`Resumed: it is ${resumeRun.status} again.`);
      }
    } catch (error) {
      setActionError(asApiError(error));
    } finally {
      setActing(undefined);
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
