import { Link } from 'react-router';
import { useMay } from '../../api/me';
import type { Choice } from '../../ui/ChoiceList';
import { Icon } from '../../ui/icons';
import type { DraftCheck } from './use-draft-check';

/** The aside: Save / Cancel (blocked with why), whether the draft can be a sub-agent, and its team. */
export function EditorSummary({
  check,
  team,
  includedIn,
  editing,
  saving,
  saved,
  flagged,
  budgetBlocked = false,
  blockedNoteId,
}: {
  check: DraftCheck | undefined;
  /** The selected sub-agents' choices, in the selector's order. */
  team: Choice[];
  includedIn: readonly string[];
  editing: boolean;
  saving: boolean;
  saved: string | undefined;
  flagged: readonly string[];
  /** A budget limit that is not a positive whole number. */
  budgetBlocked?: boolean;
  blockedNoteId: string;
}) {
  const blocked = flagged.length > 0 || budgetBlocked;
  const mayAdminister = useMay('administer');
  return (
    <aside className="editor-aside" aria-label="Summary">
      {/* First: the eligibility and team cards below change as the draft check answers; Save must not move under the pointer. */}
      <div className="form-actions">
        {mayAdminister ? (
          <button type="submit" form="agent-form" className="primary" disabled={blocked || saving} aria-describedby={blocked ? blockedNoteId : undefined}>
            {saving ? 'Saving…' : editing ? 'Save' : 'Create agent'}
          </button>
        ) : (
          <p className="muted">Read only: only an admin changes the agent library.</p>
        )}
        <Link className="button" to="/agents">
          Cancel
        </Link>
        {budgetBlocked && flagged.length === 0 && (
          <p id={blockedNoteId} className="field-problem" role="alert">
            Save is blocked: a budget limit is not a positive whole number (see Session defaults).
          </p>
        )}
        {flagged.length > 0 && (
          <p id={blockedNoteId} className="field-problem" role="alert">
            Save is blocked: {flagged.length === 1 ? 'sub-agent' : 'sub-agents'} {flagged.join(', ')} cannot be used. Remove{' '}
            {flagged.length === 1 ? 'it' : 'them'} or fix {flagged.length === 1 ? 'it' : 'them'} first.
          </p>
        )}
        {saved && (
          <p className="notice inline" role="status">
            {saved}
          </p>
        )}
      </div>
      <section className="aside-card" aria-labelledby="eligibility-title">
        <h2 id="eligibility-title">As a sub-agent</h2>
        <div className="eligibility" role="status" aria-live="polite">
          {check === undefined ? (
            <p className="muted">Type a name to see whether it can be a sub-agent.</p>
          ) : check.composable ? (
            <p>
              <span className="badge composable">
                <Icon name="composable" /> Composable
              </span>{' '}
              It can join a team.
            </p>
          ) : (
            <>
              <p className="not-composable">Cannot be a sub-agent:</p>
              <ul className="reasons">
                {check.composableReasons.map((reason) => (
                  <li key={reason}>{reason}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      </section>
      <section className="aside-card" aria-labelledby="team-title">
        <h2 id="team-title">Team</h2>
        {team.length === 0 ? (
          <p className="muted">No sub-agents: this agent works alone. Pick sub-agents below to make it a team lead.</p>
        ) : (
          <ul className="team-members">
            {team.map((c) => (
              <li key={c.value} className={c.problem ? 'problem-text' : undefined}>
                {c.problem && <Icon name="warning" label="Problem:" />} {c.label}
              </li>
            ))}
          </ul>
        )}
        {editing && includedIn.length > 0 && <p className="muted">In the team of {includedIn.join(', ')}.</p>}
      </section>
    </aside>
  );
}
