import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { type ApiError, request } from '../api/client';
import { asApiError } from '../api/mutation';
import { useMay } from '../api/me';
import { useSettled } from '../api/hooks';
import { Field } from '../ui/Field';
import { BUDGET_FIELDS, budgetOf } from '../session-settings';
import { PermissionFields, WorkspaceFields } from '../sessions';
import { ErrorNote } from '../ui/ErrorNote';
import { Icon } from '../ui/icons';
import { scheduleKeys, useCreateSchedule, useUpdateSchedule } from './mutations';
import { ScheduleEditorChoicesQuery, SchedulePreviewQuery, ScheduleQuery } from './operations';
import { draftOf, dueTimeText, emptyDraft, knownTimeZones, type ScheduleDraft, scheduleInputOf, timingOf } from './schedule-draft';

/** How long typing must pause before the preview asks the service again. */
const PREVIEW_DEBOUNCE_MS = 300;

/**
 * A new schedule (`/schedules/new`, `?agent=<id>` from an agent's card) or an existing one's changes
 * (`/schedules/<id>/edit`): the next five firings from the service as you type, the service's problems
 * when it refuses, and a save that never overwrites a change made elsewhere (expectedVersion).
 */
export function ScheduleEditorPage({ scheduleId }: { scheduleId?: string }) {
  const editing = scheduleId !== undefined;
  const mayOperate = useMay('operate');
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const writes = { create: useCreateSchedule(), update: useUpdateSchedule() };
  const choices = useQuery({ queryKey: ['schedules', 'editor-choices'], queryFn: () => request(ScheduleEditorChoicesQuery) });
  const saved = useQuery({
    queryKey: [...scheduleKeys.one(scheduleId ?? ''), 'editor'],
    queryFn: () => request(ScheduleQuery, { id: scheduleId!, firings: 1 }),
    enabled: editing,
    // Never from an older visit's cache (its version would be refused), a new object on every answer: Reload resets the form.
    gcTime: 0,
    structuralSharing: false,
  });
  const [draft, setDraft] = useState<ScheduleDraft>(() => emptyDraft(searchParams.get('agent') ?? ''));
  const [loadedVersion, setLoadedVersion] = useState<number | undefined>();
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<ApiError | undefined>();
  const [attempted, setAttempted] = useState(false);
  const id = useId();
  const zones = useMemo(() => knownTimeZones(), []);

  // The form starts from the schedule as loaded (again after "Reload"): state adjusted while rendering.
  const loaded = saved.data?.schedule;
  const [formFrom, setFormFrom] = useState(loaded);
  if (loaded !== formFrom) {
    setFormFrom(loaded);
    if (loaded) {
      setDraft(draftOf(loaded));
      setLoadedVersion(loaded.version);
    }
  }

  // Debounced as a string: a new object each render would restart the timer forever.
  const timingKey = useSettled(JSON.stringify(timingOf(draft)), PREVIEW_DEBOUNCE_MS);
  const timing = useMemo(() => JSON.parse(timingKey) as ReturnType<typeof timingOf>, [timingKey]);
  const preview = useQuery({
    queryKey: ['schedules', 'preview', timingKey],
    queryFn: () => request(SchedulePreviewQuery, timing),
    placeholderData: (previous) => previous,
  });
  const set = <K extends keyof ScheduleDraft>(key: K, value: ScheduleDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const { input, problems: draftProblems } = scheduleInputOf(draft);
  const budgetProblems = budgetOf(draft.budget).problems;
  const agents = choices.data?.agents ?? [];
  const agentModel = agents.find((a) => a.id === draft.agentId)?.model;
  const repositories = choices.data?.sessionOptions.workspaceRepositories ?? [];
  const serviceProblems = Array.isArray(saveError?.details?.problems) ? (saveError.details.problems as unknown[]).map(String) : [];
  const conflict = saveError?.code === 'expected_version_conflict';

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    if (!input) return;
    setSaving(true);
    setSaveError(undefined);
    try {
      if (editing) {
        await writes.update.mutateAsync({ id: scheduleId, expectedVersion: loadedVersion, input });
        void navigate(`/schedules/${scheduleId}`);
      } else {
        const created = await writes.create.mutateAsync({ input });
        void navigate(`/schedules/${created.createSchedule.id}`);
      }
    } catch (error) {
      setSaveError(asApiError(error));
    } finally {
      setSaving(false);
    }
  };

  if (!mayOperate) {
    return (
      <section className="page" aria-labelledby="schedule-editor-title">
        <h1 id="schedule-editor-title">{editing ? 'Edit schedule' : 'New schedule'}</h1>
        <p>
          Making and changing schedules needs the operate permission. <Link to="/schedules">Back to the schedules</Link>.
        </p>
      </section>
    );
  }
  if (editing && saved.data && !loaded) {
    return (
      <section className="page" aria-labelledby="schedule-editor-title">
        <h1 id="schedule-editor-title">Schedule not found</h1>
        <p>
          No schedule has the id <code>{scheduleId}</code> (it may have been deleted). <Link to="/schedules">Back to the schedules</Link>.
        </p>
      </section>
    );
  }

  return (
    <section className="page" aria-labelledby="schedule-editor-title">
      <p className="breadcrumb">
        <Link to="/schedules">Schedules</Link>
        {editing && loaded && (
          <>
            {' / '}
            <Link to={`/schedules/${scheduleId}`}>{loaded.name}</Link>
          </>
        )}
      </p>
      <div className="page-head">
        <div>
          <h1 id="schedule-editor-title">
            <Icon name="schedule" size={24} /> {editing ? `Edit ${loaded?.name ?? 'schedule'}` : 'New schedule'}
          </h1>
          <p className="muted">An agent, a prompt and when to run it. The next firings on the right follow what you type.</p>
        </div>
      </div>
      <ErrorNote error={choices.error} title="The agents could not be loaded" />
      <ErrorNote error={saved.error} title="The schedule could not be loaded" />
      {saveError && (
        <div className="error-note" role="alert">
          <strong>{conflict ? 'Changed elsewhere: ' : 'The schedule was not saved: '}</strong>
          {serviceProblems.length > 0 ? 'the service found these problems.' : saveError.message}
          {serviceProblems.length > 0 && (
            <ul className="problems">
              {serviceProblems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          )}
          {conflict && (
            <p>
              <button
                type="button"
                onClick={() => {
                  setSaveError(undefined);
                  void saved.refetch();
                }}
              >
                Reload it
              </button>{' '}
              (your changes here are lost)
            </p>
          )}
        </div>
      )}

      <div className="editor-layout">
        <form id={`${id}-form`} className="agent-form schedule-form" aria-labelledby="schedule-editor-title" noValidate onSubmit={(e) => void save(e)}>
          <fieldset>
            <legend>What runs</legend>
            <Field
              label="Agent"
              problem={attempted && !draft.agentId ? 'Pick an agent.' : undefined}
              help="The library agent each firing runs (with its team)."
            >
              {(props) => (
                <select {...props} value={draft.agentId} onChange={(e) => set('agentId', e.target.value)} required>
                  <option value="">Pick an agent</option>
                  {agents.map((a) => (
                    <option key={a.id} value={a.id}>
                      {a.name} ({a.id})
                    </option>
                  ))}
                  {draft.agentId && !agents.some((a) => a.id === draft.agentId) && choices.data && (
                    <option value={draft.agentId}>{draft.agentId} (not in the library)</option>
                  )}
                </select>
              )}
            </Field>
            <Field
              label="Prompt"
              problem={attempted && !draft.prompt.trim() ? 'Say what the agent should do.' : undefined}
              help="What the agent is asked at each firing."
            >
              {(props) => <textarea {...props} rows={4} value={draft.prompt} onChange={(e) => set('prompt', e.target.value)} required />}
            </Field>
            <Field label="Name (optional)" help="Empty: the agent and its timing.">
              {(props) => <input {...props} value={draft.name} onChange={(e) => set('name', e.target.value)} maxLength={120} />}
            </Field>
          </fieldset>

          <fieldset>
            <legend>When</legend>
            <div className="radio-row" role="radiogroup" aria-label="How it repeats">
              <label>
                <input type="radio" name={`${id}-kind`} value="cron" checked={draft.kind === 'cron'} onChange={() => set('kind', 'cron')} /> On a cron
                schedule
              </label>
              <label>
                <input type="radio" name={`${id}-kind`} value="at" checked={draft.kind === 'at'} onChange={() => set('kind', 'at')} /> Once
              </label>
            </div>
            <div className="field-row">
              {draft.kind === 'cron' ? (
                <Field label="Cron expression" help="minute hour day month weekday (e.g. 0 9 * * 1-5), or 6 fields with seconds first.">
                  {(props) => <input {...props} className="mono" value={draft.cron} onChange={(e) => set('cron', e.target.value)} maxLength={200} />}
                </Field>
              ) : (
                <Field label="Runs at" problem={attempted && !draft.at ? 'Pick the time it runs.' : undefined} help="In the time zone below.">
                  {(props) => <input {...props} type="datetime-local" step={1} value={draft.at} onChange={(e) => set('at', e.target.value)} />}
                </Field>
              )}
              <Field label="Time zone" help="An IANA zone: UTC, Europe/Berlin, America/New_York.">
                {(props) => (
                  <>
                    <input {...props} list={`${id}-zones`} value={draft.timeZone} onChange={(e) => set('timeZone', e.target.value)} maxLength={100} />
                    <datalist id={`${id}-zones`}>
                      {zones.map((zone) => (
                        <option key={zone} value={zone} />
                      ))}
                    </datalist>
                  </>
                )}
              </Field>
            </div>
            <Field label="Ends (optional)" help="Nothing fires after this time (in the time zone above).">
              {(props) => <input {...props} type="datetime-local" value={draft.endsAt} onChange={(e) => set('endsAt', e.target.value)} />}
            </Field>
            <div className="field-row">
              <Field label="If the last firing still runs">
                {(props) => (
                  <select {...props} value={draft.overlap} onChange={(e) => set('overlap', e.target.value === 'allow' ? 'allow' : 'skip')}>
                    <option value="skip">Skip this firing</option>
                    <option value="allow">Start another run anyway</option>
                  </select>
                )}
              </Field>
              <Field label="After downtime">
                {(props) => (
                  <select {...props} value={draft.catchUp} onChange={(e) => set('catchUp', e.target.value === 'last' ? 'last' : 'skip')}>
                    <option value="skip">Skip the missed firings</option>
                    <option value="last">Run the last missed one once</option>
                  </select>
                )}
              </Field>
            </div>
          </fieldset>

          <fieldset>
            <legend>Run settings (optional)</legend>
            <Field label="Model" help={agentModel ? `Empty: the agent's model (${agentModel}).` : "Empty: the agent's model, else the service default."}>
              {(props) => <input {...props} value={draft.model} onChange={(e) => set('model', e.target.value)} maxLength={200} />}
            </Field>
            <div className="field-row budget-fields">
              {BUDGET_FIELDS.map(({ field, label, decimal }) => (
                <Field key={field} label={label} problem={budgetProblems[field]} narrow>
                  {(props) => (
                    <input
                      {...props}
                      inputMode={decimal ? 'decimal' : 'numeric'}
                      placeholder="no limit"
                      value={draft.budget[field]}
                      onChange={(e) => set('budget', { ...draft.budget, [field]: e.target.value })}
                    />
                  )}
                </Field>
              ))}
            </div>
            <p className="help">A budget over each firing's run and every run it starts. Max cost needs the service's price table.</p>
          </fieldset>
          <PermissionFields
            policy={draft.policy}
            onChange={(policy) => set('policy', policy)}
            kindOptions={choices.data?.sessionOptions.permissionKinds}
            toolSuggestions={[...(choices.data?.sessionOptions.delegationTools ?? []), ...(choices.data?.knownBuiltinTools ?? [])]}
            disabled={saving}
          />
          {(repositories.length > 0 || draft.workspace.repository !== '') && (
            <WorkspaceFields
              workspace={draft.workspace}
              onChange={(workspace) => set('workspace', workspace)}
              repositories={repositories}
              mode="schedule"
              disabled={saving}
            />
          )}
        </form>

        <aside className="editor-aside" aria-label="Preview and save">
          <section className="aside-card" aria-labelledby={`${id}-preview-title`}>
            <h2 id={`${id}-preview-title`}>Next firings</h2>
            <div role="status" aria-live="polite" data-testid="schedule-preview">
              <ErrorNote error={preview.error} title="No preview" />
              {preview.data && preview.data.schedulePreview.problems.length > 0 && (
                <ul className="reasons problem-text" aria-label="Problems with the timing">
                  {preview.data.schedulePreview.problems.map((p) => (
                    <li key={p}>{p}</li>
                  ))}
                </ul>
              )}
              {preview.data && preview.data.schedulePreview.problems.length === 0 && preview.data.schedulePreview.nextFirings.length === 0 && (
                <p className="muted">Nothing would fire: the time is past or the end comes first.</p>
              )}
              {preview.data && preview.data.schedulePreview.nextFirings.length > 0 && (
                <ol className="next-firings" aria-label="Next firings">
                  {preview.data.schedulePreview.nextFirings.map((due) => (
                    <li key={due}>
                      <time dateTime={due}>{dueTimeText(due, timing.timeZone)}</time>
                    </li>
                  ))}
                </ol>
              )}
            </div>
          </section>
          <section className="aside-card">
            <div className="form-actions">
              <button type="submit" form={`${id}-form`} className="primary" disabled={saving}>
                {saving ? 'Saving…' : editing ? 'Save changes' : 'Create schedule'}
              </button>
              <Link to={editing ? `/schedules/${scheduleId}` : '/schedules'}>Cancel</Link>
              {attempted && draftProblems.length > 0 && <p className="field-problem">Fix the fields marked above first.</p>}
            </div>
          </section>
        </aside>
      </div>
    </section>
  );
}
