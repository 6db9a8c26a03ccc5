// The sessions feature's public face: the session pages (list, new, chat); what others use: a session's title as a link, and the fields of
// the session settings (web/src/session-settings) that the agent editor shows too.
// Other features and app/ import only this file (web/src/architecture.spec.ts); every other file here is the feature's own.

export { ChatPage } from './ChatPage';
export { NewSessionPage } from './NewSessionPage';
export { PermissionFields, SessionSettingsFields, WorkspaceFields } from './SessionSettingsFields';
export { SessionTitleLink } from './SessionTitleLink';
export { SessionsPage } from './SessionsPage';
