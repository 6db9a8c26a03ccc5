// The session settings (delegation, permission policy, budget) as drafts and as the service wants them: no
// page of its own, pure functions the session pages, the agent editor (an agent's session defaults) and the
// schedule editor (a firing's budget) share. Others import only this file (web/src/architecture.spec.ts).

export * from './session-settings';
