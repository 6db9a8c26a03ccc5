// The runs feature's public face: the runs list and the run page.
// Other features and app/ import only this file (web/src/architecture.spec.ts); every other file here is the feature's own.

export { RunPage } from './RunPage';
export { RunsPage } from './RunsPage';
