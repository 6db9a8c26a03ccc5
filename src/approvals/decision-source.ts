/**
 * Who decides a permission request, as the audit records it (`decidedBy`, and the event's actor).
 * A person through the console or the API; the approval timeout; the session's permission policy,
 * or an earlier approval for the rest of the session; an expiry when the session ended first.
 */
export type DecisionSource = 'console' | 'api' | 'timeout' | 'policy' | 'session-grant' | 'expired' | 'switchboard';

// Any context records a person's actions by the same rule (sessions cannot import approvals): defined in common.
export { CLIENT_HEADER, personDecisionSource } from '../common';
