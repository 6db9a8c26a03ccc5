import { InvalidInputError } from './domain-error';

/**
 * `If-Match: <version>` (ETag-style: quotes and a weak `W/` allowed) guards an update or delete against a
 * lost update; undefined when the header is absent. `what` names the version in the 400 (`an agent`).
 */
export function expectedVersionOf(ifMatch: string | undefined, what: string): number | undefined {
  if (ifMatch === undefined) return undefined;
  const version = Number(ifMatch.replace(/^W\//, '').replace(/"/g, ''));
  if (!Number.isInteger(version) || version < 1) throw new InvalidInputError(`If-Match must be ${what} version number (got ${ifMatch})`);
  return version;
}
