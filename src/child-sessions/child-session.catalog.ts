import { CONVERSATION, contextCatalog, TRACES } from '../common';
import { onSession } from '../sessions';
import { ChildSessionEvents } from './child-session.events';

export const childSessionCatalog = contextCatalog(
  { ChildSessionEvents },
  {
    [ChildSessionEvents.subagentStarted]: onSession(ChildSessionEvents.subagentStarted, 'parent', ['child-sessions', TRACES], CONVERSATION),
    [ChildSessionEvents.subagentCompleted]: onSession(ChildSessionEvents.subagentCompleted, 'parent', ['child-sessions', TRACES], CONVERSATION),
    [ChildSessionEvents.subagentFailed]: onSession(ChildSessionEvents.subagentFailed, 'parent', ['child-sessions', TRACES], CONVERSATION),
    [ChildSessionEvents.childMapped]: onSession(ChildSessionEvents.childMapped, 'parent', ['child-sessions'], CONVERSATION),
  },
);
