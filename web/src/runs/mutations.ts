import { useGraphqlMutation } from '../api/mutation';
import {
  ForkRunMutation,
  PauseRunMutation,
  ReplayRunMutation,
  ResumeRunMutation,
  SteerRunMutation,
  StopRunMutation,
  UnpauseRunMutation,
} from './operations';

// Every write of the runs pages, and what each makes stale: the page's header (status, pause, budget).
// A replay or a fork is a new run the page moves to, and a steer changes nothing the page asked for.

export const runHeaderKey = (runId: string) => ['runs', 'header', runId] as const;
// An ID variable may be a number to GraphQL; the page keys its queries by the id as a string.
const header = ({ runId }: { runId: string | number }) => [runHeaderKey(String(runId))];

export const useStopRun = () => useGraphqlMutation(StopRunMutation, { stale: header });
export const usePauseRun = () => useGraphqlMutation(PauseRunMutation, { stale: header });
export const useUnpauseRun = () => useGraphqlMutation(UnpauseRunMutation, { stale: header });
export const useResumeRun = () => useGraphqlMutation(ResumeRunMutation, { stale: header });
export const useReplayRun = () => useGraphqlMutation(ReplayRunMutation);
export const useForkRun = () => useGraphqlMutation(ForkRunMutation);
export const useSteerRun = () => useGraphqlMutation(SteerRunMutation);
