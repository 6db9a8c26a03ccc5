import { DomainError } from './domain-error';

/**
 * The base of an error that says `<Kind> <id> does not exist`, with the id in its details under its
 * own name: `class AgentNotFoundError extends missingEntityError('not_found', 'Agent', 'agentId') {}`.
 * Each context keeps its own class (its name, its code's HTTP status); only the body is shared.
 */
export function missingEntityError<Code extends string>(code: Code, kind: string, idName: string) {
  abstract class MissingEntityError extends DomainError {
    readonly code: Code = code;

    constructor(id: string) {
      super(`${kind} ${id} does not exist`, { [idName]: id });
    }
  }
  return MissingEntityError;
}
