// The audit feature's public face: the audit log page.
// Other features and app/ import only this file (web/src/architecture.spec.ts); every other file here is the feature's own.

export { AuditPage } from './AuditPage';
