/** Raised at start when the database file cannot be used; the message names the file and what to fix. */
export class DatabaseFileUnusableError extends Error {
  readonly code = 'database_file_unusable';

  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`Cannot use database file ${file}: ${problem}`);
    this.name = 'DatabaseFileUnusableError';
  }
}
