/** A `workspace` a request names that cannot be used; `message` says what to fix, `field` where. */
export class WorkspaceRequestError extends Error {
  constructor(
    readonly field: 'workspace.repository' | 'workspace.ref',
    message: string,
  ) {
    super(message);
    this.name = 'WorkspaceRequestError';
  }
}
