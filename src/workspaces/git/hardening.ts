/**
 * What makes a git invocation safe in a repository nobody vetted: nothing the repository's config, hooks or
 * `.gitattributes` name may run on the host. Overrides go in as command-line config (GIT_CONFIG_COUNT /
 * GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n, the same scope as `-c`, which outranks every config file and is
 * inherited by the git processes git starts itself, e.g. `worktree add`'s checkout), so a key or a driver name
 * with `=` in it cannot be misparsed the way `-c key=value` would.
 */

/** The drivers a repository's own config (local, worktree, included files) defines, by kind. */
export interface RepositoryDrivers {
  /** `filter.<name>.*`: clean/smudge/process commands run on every file read into or written out of git. */
  filters: string[];
  /** `diff.<name>.*`: `command` (external diff) and `textconv`. */
  diffs: string[];
  /** `merge.<name>.*`: `driver`, the command a three-way merge of a file runs. */
  merges: string[];
}

export const NO_DRIVERS: RepositoryDrivers = { filters: [], diffs: [], merges: [] };

/** The pattern `git config --get-regexp` reads the drivers with (reading config runs nothing). */
export const DRIVER_KEYS = '^(filter|diff|merge)\\.';

/**
 * Stands in for every repository-defined merge driver: git's own three-way text merge (the one a file
 * without a driver gets), with conflict markers, exiting non-zero on conflict as a driver must. Run by git
 * through `sh -c`; %A %O %B %L are temp file names and a number git fills in, never repository text.
 */
export const SAFE_MERGE_DRIVER = 'git merge-file -q --marker-size=%L -L HEAD -L base -L incoming %A %O %B';

/** The identity commits are made with unless the caller gives one. */
export interface GitIdentity {
  name: string;
  email: string;
}

export const SWITCHBOARD_IDENTITY: GitIdentity = { name: 'Switchboard', email: 'switchboard@localhost' };

/**
 * Overrides that hold whatever the repository says. Each names something git would otherwise start.
 * Diff drivers (`diff.external`, `diff.<d>.command`, `diff.<d>.textconv`) have no harmless value (git would
 * run an empty command); they are made inert by how git is called instead: diffs only through plumbing
 * (`diff-tree`) with `--no-ext-diff --no-textconv`, merges with `--no-stat`, commits with `-q`.
 */
const FIXED_OVERRIDES: ReadonlyArray<readonly [string, string]> = [
  // Hooks: a folder that holds none (`/dev/null/<hook>` never exists), for every hook of every command.
  ['core.hooksPath', '/dev/null'],
  // fsmonitor may name a program (a hook in older form) that git runs on each index refresh.
  ['core.fsmonitor', 'false'],
  // Signing and verifying run gpg.program / gpg.<format>.program.
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['merge.verifySignatures', 'false'],
  ['log.showSignature', 'false'],
  ['gpg.program', 'false'],
  ['gpg.openpgp.program', 'false'],
  ['gpg.x509.program', 'false'],
  ['gpg.ssh.program', 'false'],
  ['gpg.ssh.defaultKeyCommand', 'false'],
  // "cat" is git's own spelling of "no pager"; ":" is its spelling of "no editor" (neither is run).
  ['core.pager', 'cat'],
  ['core.editor', ':'],
  ['sequence.editor', ':'],
  // Credentials and transports: an empty helper resets the list; no protocol (GIT_ALLOW_PROTOCOL too), so
  // nothing (a lazy fetch of a partial clone included) reaches core.sshCommand, a remote helper or a proxy.
  ['credential.helper', ''],
  ['core.askPass', ''],
  ['protocol.allow', 'never'],
  ['core.sshCommand', 'false'],
  // No background `gc --auto`/`maintenance` (they would run the pre-auto-gc hook and take time).
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  // Submodules are never recursed into (their config and hooks are not this repository's).
  ['submodule.recurse', 'false'],
  // Deterministic merges: no resolution replayed from rr-cache.
  ['rerere.enabled', 'false'],
  // Not hardening but speed: the files a checkout writes (a worktree, a merge, a restore) are written in
  // parallel, one worker per core; a worktree's checkout is mostly the kernel creating files.
  ['checkout.workers', '0'],
];

/** The command-line config of one invocation: the fixed overrides, then one neutral value per repository driver. */
export function configOverrides(drivers: RepositoryDrivers): Array<readonly [string, string]> {
  const overrides: Array<readonly [string, string]> = [...FIXED_OVERRIDES];
  for (const name of drivers.filters) {
    // An empty command is skipped (convert.c: `if (cmd && *cmd)`); not required, so skipping is not an error.
    overrides.push([`filter.${name}.clean`, ''], [`filter.${name}.smudge`, ''], [`filter.${name}.process`, ''], [`filter.${name}.required`, 'false']);
  }
  for (const name of drivers.merges) overrides.push([`merge.${name}.driver`, SAFE_MERGE_DRIVER], [`merge.${name}.recursive`, 'text']);
  return overrides;
}

/** `git config -z --name-only --get-regexp` output (`filter.Name.clean\0...`) as driver names by kind. */
export function parseDriverKeys(output: string): RepositoryDrivers {
  const sets = { filter: new Set<string>(), diff: new Set<string>(), merge: new Set<string>() };
  for (const key of output.split('\0')) {
    const first = key.indexOf('.');
    const last = key.lastIndexOf('.');
    if (first < 0 || last <= first) continue; // `merge.ff`, `diff.external`: no driver name
    const section = key.slice(0, first);
    if (section === 'filter' || section === 'diff' || section === 'merge') sets[section].add(key.slice(first + 1, last));
  }
  return { filters: [...sets.filter], diffs: [...sets.diff], merges: [...sets.merge] };
}

/**
 * The environment of every git process: the host's own, less every GIT_* variable (GIT_DIR, GIT_EXTERNAL_DIFF,
 * GIT_SSH_COMMAND, GIT_CONFIG_PARAMETERS...) and whatever else could name a program, plus ours.
 */
export function gitEnvironment(
  drivers: RepositoryDrivers,
  extra: Readonly<Record<string, string>> = {},
  identity = SWITCHBOARD_IDENTITY,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('GIT_') && !DROPPED_VARIABLES.has(key)) env[key] = value;
  }
  const overrides = configOverrides(drivers);
  // The caller's extras first (GIT_INDEX_FILE), so none of them can undo a hardening value below.
  Object.assign(env, extra, {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    // The global ignore and attributes files default to $XDG_CONFIG_HOME/git/...: none.
    XDG_CONFIG_HOME: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    GIT_EDITOR: ':',
    GIT_SEQUENCE_EDITOR: ':',
    GIT_ALLOW_PROTOCOL: 'none',
    // Paths given to git are paths, never pathspec magic.
    GIT_LITERAL_PATHSPECS: '1',
    GIT_OPTIONAL_LOCKS: '0',
    // git's messages in English, so the first stderr line reads the same everywhere.
    LC_ALL: 'C',
    GIT_AUTHOR_NAME: identity.name,
    GIT_AUTHOR_EMAIL: identity.email,
    GIT_COMMITTER_NAME: identity.name,
    GIT_COMMITTER_EMAIL: identity.email,
    GIT_CONFIG_COUNT: String(overrides.length),
  });
  overrides.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/** Non-GIT_ variables git reads to find a program to run. */
const DROPPED_VARIABLES = new Set(['SSH_ASKPASS', 'PAGER', 'EDITOR', 'VISUAL', 'LESS', 'LV']);
