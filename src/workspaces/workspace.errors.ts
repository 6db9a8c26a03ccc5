import { HttpStatus } from '@nestjs/common';
import { DomainError } from '../common';

/** A `workspace` a request names that cannot be used: outside SWITCHBOARD_REPOSITORIES, not a repository, an unknown ref. HTTP 422. */
export class WorkspaceRefusedError extends DomainError {
  readonly code = 'workspace_refused';
}

/** Workspaces are off (SWITCHBOARD_REPOSITORIES unset) and a request asked for one. HTTP 422, saying how to turn them on. */
export class WorkspacesOffError extends DomainError {
  readonly code = 'workspaces_off';

  constructor() {
    super(
      'workspace needs SWITCHBOARD_REPOSITORIES: the operator lists the repositories sessions may use (a comma list of folders); unset, every session works in SWITCHBOARD_WORKING_DIRECTORY',
    );
  }
}

/** A session or run without a workspace asked for its changes. HTTP 404. */
export class NoWorkspaceError extends DomainError {
  static override readonly httpStatus = HttpStatus.NOT_FOUND;
  readonly code = 'not_found';

  constructor(what: string) {
    super(`${what} has no workspace: start it with workspace: {repository} (SWITCHBOARD_REPOSITORIES lists the repositories)`, {});
  }
}

/** git failed on a workspace: the step is not recorded and nothing is half-written. HTTP 500 is never what a caller gets: 502, git's own words. */
export class WorkspaceGitError extends DomainError {
  static override readonly httpStatus = HttpStatus.BAD_GATEWAY;
  readonly code = 'workspace_git_failed';
}
