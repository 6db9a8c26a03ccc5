import { useGraphqlMutation } from '../api/mutation';
import {
  AbortSessionTurnMutation,
  AnswerUserInputMutation,
  ChangeSessionSubAgentsMutation,
  CreateSessionMutation,
  DestroySessionMutation,
  PauseSessionMutation,
  ResumeSessionMutation,
  SendMessageMutation,
  SteerSessionMutation,
  UnpauseSessionMutation,
} from './operations';

// Every write of the session pages, and the queries each makes stale. What a turn then does (messages,
// status changes) reaches the chat through its live events, not through these.

type Id = string | number;
/** The sessions' query keys: the list (every search of it), and one session's chat, status, questions and pause. */
export const sessionKeys = {
  list: ['sessions', 'list'] as const,
  chat: (sessionId: Id) => ['sessions', 'chat', String(sessionId)] as const,
  status: (sessionId: Id) => ['sessions', 'status', String(sessionId)] as const,
  questions: (sessionId: Id) => ['sessions', 'questions', String(sessionId)] as const,
  pause: (sessionId: Id) => ['sessions', 'pause', String(sessionId)] as const,
};

/** Resumed or destroyed: its row in the list, and the status a chat page shows. */
const listAndStatus = ({ sessionId }: { sessionId: Id }) => [sessionKeys.list, sessionKeys.status(sessionId)];

export const useResumeSession = () => useGraphqlMutation(ResumeSessionMutation, { stale: listAndStatus });
export const useDestroySession = () => useGraphqlMutation(DestroySessionMutation, { stale: listAndStatus });
export const useAbortSessionTurn = () => useGraphqlMutation(AbortSessionTurnMutation, { stale: ({ sessionId }) => [sessionKeys.status(sessionId)] });
export const useCreateSession = () => useGraphqlMutation(CreateSessionMutation);
export const useSendMessage = () => useGraphqlMutation(SendMessageMutation);
export const useSteerSession = () => useGraphqlMutation(SteerSessionMutation);
export const useChangeSessionSubAgents = () =>
  useGraphqlMutation(ChangeSessionSubAgentsMutation, { stale: ({ sessionId }) => [sessionKeys.chat(sessionId)] });
/** An answered question leaves the pending ones; a refused answer leaves them as they were. */
export const useAnswerUserInput = () =>
  useGraphqlMutation(AnswerUserInputMutation, { stale: ({ sessionId }) => [sessionKeys.questions(sessionId)], when: 'success' });
export const usePauseSession = () => useGraphqlMutation(PauseSessionMutation, { stale: ({ sessionId }) => [sessionKeys.pause(sessionId)] });
export const useUnpauseSession = () => useGraphqlMutation(UnpauseSessionMutation, { stale: ({ sessionId }) => [sessionKeys.pause(sessionId)] });
