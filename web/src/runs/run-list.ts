// What the runs list sends and shows: the filter form's fields as the API's RunFilterInput, and the
// colour family of a run status.

export const RUN_STATUSES = ['running', 'completed', 'failed', 'stopped', 'interrupted'] as const;

export interface RunFilterFields {
  status?: string;
  agentId?: string;
  rootRunId?: string;
  /** datetime-local values (the reader's local time), as the inputs give them. */
  startedFrom?: string;
  startedTo?: string;
}

export interface RunFilter {
  status?: string;
  agentId?: string;
  rootRunId?: string;
  startedFrom?: string;
  startedTo?: string;
}

/** Only the fields with a value, trimmed; times from the reader's local time to ISO (UTC). */
export function runFilterOf(fields: RunFilterFields): RunFilter {
  const filter: RunFilter = {};
  for (const key of ['status', 'agentId', 'rootRunId'] as const) {
    const value = fields[key]?.trim();
    if (value) filter[key] = value;
  }
  for (const key of ['startedFrom', 'startedTo'] as const) {
    const value = fields[key]?.trim();
    if (!value) continue;
    const time = new Date(value);
    if (!Number.isNaN(time.getTime())) filter[key] = time.toISOString();
  }
  return filter;
}

/** The badge colour of a run status: working, done, needing attention, stopped. */
export function runStatusTone(status: string): 'live' | 'done' | 'attention' | 'over' {
  if (status === 'running') return 'live';
  if (status === 'completed') return 'done';
  if (status === 'failed' || status === 'interrupted' || status === 'paused') return 'attention';
  return 'over';
}

/** The actions a run's status allows: Stop while it runs, Resume once interrupted or stopped. */
export function runActionsFor(status: string): Array<'stop' | 'resume'> {
  if (status === 'running' || status === 'paused') return ['stop'];
  if (status === 'interrupted' || status === 'stopped') return ['resume'];
  return [];
}
