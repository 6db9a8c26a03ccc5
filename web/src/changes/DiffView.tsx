import { Diff, Hunk } from 'react-diff-view';
import 'react-diff-view/style/index.css';
import type { DiffFile } from './changes';

/** Changed lines shown at once in the "all files" view; past them, the reader picks a file. */
const LINE_BUDGET = 4000;

/**
 * A unified diff, one file after another, drawn by react-diff-view (its own table per file). A file
 * without hunks says why: binary, renamed as it was, or only its mode changed.
 */
export function DiffView({ files, binary }: { files: readonly DiffFile[]; binary: ReadonlySet<string> }) {
  let budget = LINE_BUDGET;
  const shown: DiffFile[] = [];
  for (const file of files) {
    const lines = file.hunks.reduce((sum, hunk) => sum + hunk.changes.length, 0);
    if (shown.length > 0 && lines > budget) break;
    shown.push(file);
    budget -= lines;
  }
  const left = files.length - shown.length;
  return (
    <div className="diff-files">
      {shown.map((file) => (
        <article className="diff-file" key={file.key} aria-label={`Diff of ${file.path}`}>
          <header className="diff-file-head">
            <code>{file.type === 'rename' ? `${file.oldPath} \u2192 ${file.newPath}` : file.path}</code>
          </header>
          {file.hunks.length === 0 ? (
            <p className="muted small diff-note">
              {binary.has(file.path)
                ? 'A binary file: no lines to show.'
                : file.type === 'rename'
                  ? 'Renamed, its content unchanged.'
                  : 'No line changed (its mode or type did).'}
            </p>
          ) : (
            <div className="diff-scroll" tabIndex={0} role="region" aria-label={`Changed lines of ${file.path}`}>
              <Diff viewType="unified" diffType={file.type} hunks={file.hunks}>
                {(hunks) => hunks.map((hunk) => <Hunk key={hunk.content} hunk={hunk} />)}
              </Diff>
            </div>
          )}
        </article>
      ))}
      {left > 0 && (
        <p className="muted small">
          {left} more {left === 1 ? 'file' : 'files'} not drawn here (the diff is long): pick one in the list.
        </p>
      )}
    </div>
  );
}
