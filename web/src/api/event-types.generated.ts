// Generated from src/event-catalog.ts; do not edit. `UPDATE_EVENT_TYPES=1 npx jest src/event-catalog.spec.ts` writes it
// again, and that spec fails while it differs from the catalog.

/** Every event type the service appends: the stream it is on and who appends it (a decider, or another context as a fact). */
export const EVENT_TYPES = {
  'agent.created': { stream: 'agent', appendedBy: 'agentDecider' },
  'agent.updated': { stream: 'agent', appendedBy: 'agentDecider' },
  'agent.deleted': { stream: 'agent', appendedBy: 'agentDecider' },
  'session.created': { stream: 'session', appendedBy: 'sessionDecider' },
  'session.started': { stream: 'session', appendedBy: 'sessionDecider' },
  'session.message_sent': { stream: 'session', appendedBy: 'sessionDecider' },
  'session.interrupted': { stream: 'session', appendedBy: 'sessionDecider' },
  'session.resumed': { stream: 'session', appendedBy: 'sessionDecider' },
  'session.destroyed': { stream: 'session', appendedBy: 'sessionDecider' },
  'session.start_failed': { stream: 'session', appendedBy: 'sessionDecider' },
  'session.message_failed': { stream: 'session', appendedBy: 'sessionDecider' },
  'session.resume_failed': { stream: 'session', appendedBy: 'sessionDecider' },
  'session.sub_agents_changed': { stream: 'session', appendedBy: 'sessionDecider' },
  'session.abort_requested': { stream: 'session', appendedBy: 'sessionDecider' },
  'session.steered': { stream: 'session', appendedBy: 'sessionDecider' },
  'session.steer_failed': { stream: 'session', appendedBy: 'sessionDecider' },
  'session.reminded': { stream: 'session', appendedBy: 'sessionDecider' },
  'cli.<type>': { stream: 'session', appendedBy: 'sessions (recorded from the CLI)' },
  'run.started': { stream: 'run', appendedBy: 'runDecider' },
  'run.completed': { stream: 'run', appendedBy: 'runDecider' },
  'run.failed': { stream: 'run', appendedBy: 'runDecider' },
  'run.stopped': { stream: 'run', appendedBy: 'runDecider' },
  'run.interrupted': { stream: 'run', appendedBy: 'runDecider' },
  'run.resumed': { stream: 'run', appendedBy: 'runDecider' },
  'run.budget_warned': { stream: 'run', appendedBy: 'runDecider' },
  'run.ended': { stream: 'session', appendedBy: 'delegation (on the owner session)' },
  'run.progress': { stream: 'session', appendedBy: 'delegation (on the parent session)' },
  'run.delegation_refused': { stream: 'session', appendedBy: 'delegation (on the caller session)' },
  'pause.paused': { stream: 'pause', appendedBy: 'pauseDecider' },
  'pause.unpaused': { stream: 'pause', appendedBy: 'pauseDecider' },
  'permission.asked': { stream: 'approval', appendedBy: 'approvalDecider' },
  'approval.decided': { stream: 'approval', appendedBy: 'approvalDecider' },
  'approval.expired': { stream: 'approval', appendedBy: 'approvalDecider' },
  'model_call.started': { stream: 'model_call', appendedBy: 'modelCallDecider' },
  'model_call.finished': { stream: 'model_call', appendedBy: 'modelCallDecider' },
  'model_call.failed': { stream: 'model_call', appendedBy: 'modelCallDecider' },
  'model_call.refused': { stream: 'model_call', appendedBy: 'modelCallDecider' },
  'model_call.interrupted': { stream: 'model_call', appendedBy: 'modelCallDecider' },
  'subagent.started': { stream: 'session', appendedBy: 'child-sessions (on the parent session)' },
  'subagent.completed': { stream: 'session', appendedBy: 'child-sessions (on the parent session)' },
  'subagent.failed': { stream: 'session', appendedBy: 'child-sessions (on the parent session)' },
  'child_session.mapped': { stream: 'session', appendedBy: 'child-sessions (on the parent session)' },
  'tool_call.routed': { stream: 'session', appendedBy: 'tool-dispatch (on the parent session)' },
  'tool_call.denied': { stream: 'session', appendedBy: 'tool-dispatch (on the parent session)' },
  'permission.decided': { stream: 'session', appendedBy: 'tool-dispatch (on the parent session)' },
  'hook.invoked': { stream: 'session', appendedBy: 'tool-dispatch (on the parent session)' },
  'user_input.requested': { stream: 'session', appendedBy: 'tool-dispatch (on the parent session)' },
  'user_input.answered': { stream: 'session', appendedBy: 'tool-dispatch (on the parent session)' },
} as const;

export type EventType = keyof typeof EVENT_TYPES;

/** CLI events are kept as `cli.<their type>` (the 'cli.<type>' entry). */
export const CLI_EVENT_PREFIX = 'cli.';
