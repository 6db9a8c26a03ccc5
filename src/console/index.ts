/**
 * The console context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside console/ import each other directly, never this file.
 */
export { consoleBundle, serveConsole } from './serve-console';
export type { ConsoleBundle } from './serve-console';
