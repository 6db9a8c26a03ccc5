import type { ApiError } from '../../api/client';
import { ErrorNote } from '../../ui/ErrorNote';
import type { ChangedElsewhere } from './use-library-changes';

/**
 * Why the draft is not saved or not current, above the form: changed or deleted elsewhere, a version
 * conflict (both offer a reload), field problems (marked on the fields), refused sub-agents.
 */
export function DraftProblems({
  changedElsewhere,
  saveError,
  hasFieldProblems,
  onReload,
}: {
  changedElsewhere: ChangedElsewhere | undefined;
  saveError: ApiError | undefined;
  hasFieldProblems: boolean;
  onReload: () => void;
}) {
  const conflict = saveError?.code === 'expected_version_conflict';
  return (
    <>
      {changedElsewhere && (
        <div className="warning-note" role="alert">
          {changedElsewhere.deleted
            ? 'This agent was deleted elsewhere.'
            : `Someone else saved this agent (now version ${changedElsewhere.version}) since you opened it.`}{' '}
          {!changedElsewhere.deleted && (
            <button type="button" onClick={onReload}>
              Reload their version
            </button>
          )}
        </div>
      )}
      {conflict ? (
        <div className="warning-note" role="alert">
          Not saved: someone else saved this agent first ({saveError.message}). Reload to see their changes, then apply yours again.{' '}
          <button type="button" onClick={onReload}>
            Reload
          </button>
        </div>
      ) : (
        saveError && !hasFieldProblems && saveError.code !== 'invalid_sub_agents' && <ErrorNote error={saveError} title="Not saved" />
      )}
      {saveError && hasFieldProblems && (
        <div className="error-note" role="alert">
          Not saved: fix the fields marked below.
        </div>
      )}
      {saveError?.code === 'invalid_sub_agents' && (
        <div className="error-note" role="alert">
          Not saved: {saveError.message}
        </div>
      )}
    </>
  );
}
