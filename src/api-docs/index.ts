/**
 * The api-docs context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside api-docs/ import each other directly, never this file.
 */
export { apiDocsAccess } from './api-docs-access';
export { buildOpenApiDocument } from './openapi-document';
