// The api-docs feature's public face: the API reference page.
// Other features and app/ import only this file (web/src/architecture.spec.ts); every other file here is the feature's own.

export { ApiDocsPage } from './ApiDocsPage';
