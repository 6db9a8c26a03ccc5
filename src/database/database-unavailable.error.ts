/** Raised at start when the database file cannot be used; the message names the file and what to fix. */
export class DatabaseUnavailableError extends Error {
  readonly code = 'database_unavailable';

  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`Cannot use database file ${file}: ${problem}`);
    this.name = 'DatabaseUnavailableError';
  }
}
