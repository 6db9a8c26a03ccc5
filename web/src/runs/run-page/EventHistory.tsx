import { memo, useMemo, useState } from 'react';
import type { RunStreamEvent } from '../run-tree';
import { HISTORY_CAP } from '../use-run-events';

/** Events the history renders at first and adds per "Show earlier": the DOM stays small however long the run. */
const HISTORY_WINDOW = 100;

/** The subtree's events, newest last, filtered by type, windowed. */
export function EventHistory({
  history,
  dropped,
  types,
  version,
}: {
  history: readonly RunStreamEvent[];
  dropped: number;
  types: ReadonlyMap<string, number>;
  version: number;
}) {
  const [type, setType] = useState('');
  const [shown, setShown] = useState(HISTORY_WINDOW);
  // Newest last; only the last `shown` matching events are in the DOM. One backward scan, stopping once enough are found.
  const { visible, more } = useMemo(() => {
    const picked: RunStreamEvent[] = [];
    let i = history.length - 1;
    for (; i >= 0 && picked.length < shown; i--) if (!type || history[i].type === type) picked.push(history[i]);
    let rest = false;
    for (; i >= 0 && !rest; i--) rest = !type || history[i].type === type;
    return { visible: picked.reverse(), more: rest };
  }, [history, type, shown, version]); // eslint-disable-line react-hooks/exhaustive-deps -- the history grows in place; version says when
  const typeList = useMemo(() => [...types.keys()].sort(), [types, version]); // eslint-disable-line react-hooks/exhaustive-deps -- as above

  return (
    <section className="event-history" aria-labelledby="history-title">
      <div className="history-head">
        <h2 id="history-title">Events</h2>
        <div className="field inline-field">
          <label htmlFor="history-type">Type</label>
          <select id="history-type" value={type} onChange={(e) => setType(e.target.value)}>
            <option value="">All types ({history.length})</option>
            {typeList.map((t) => (
              <option key={t} value={t}>
                {t} ({types.get(t)})
              </option>
            ))}
          </select>
        </div>
      </div>
      {(more || dropped > 0) && (
        <p className="history-more">
          {more && (
            <button type="button" onClick={() => setShown((n) => n + HISTORY_WINDOW)}>
              Show {HISTORY_WINDOW} earlier events
            </button>
          )}
          {dropped > 0 && !more && (
            <span className="muted small">
              The oldest {dropped} events are not kept in the page (it keeps the newest {HISTORY_CAP}); the audit log has them all.
            </span>
          )}
        </p>
      )}
      <ol className="event-list" aria-label="Events of the run and its descendants, newest last">
        {visible.map((event) => (
          <EventRow key={event.globalPosition} event={event} />
        ))}
      </ol>
    </section>
  );
}

const EventRow = memo(function EventRow({ event }: { event: RunStreamEvent }) {
  const [open, setOpen] = useState(false);
  return (
    <li className="event-row" data-type={event.type}>
      <div className="event-line">
        <span className="muted small">#{event.globalPosition}</span>
        <time className="small" dateTime={event.recordedAt}>
          {new Date(event.recordedAt).toLocaleTimeString()}
        </time>
        <span className="mono event-type">{event.type}</span>
        <span className="muted small mono event-stream">{event.streamId}</span>
        <button
          type="button"
          className="link-button"
          aria-expanded={open}
          aria-label={`${open ? 'Hide' : 'Show'} the JSON of event ${event.globalPosition}`}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide JSON' : 'JSON'}
        </button>
      </div>
      {open && (
        // Focusable: a long event scrolls, and a keyboard must be able to scroll it.
        <pre className="mono event-json" tabIndex={0} aria-label={`JSON of event ${event.globalPosition}`}>
          {JSON.stringify(event, null, 2)}
        </pre>
      )}
    </li>
  );
});
