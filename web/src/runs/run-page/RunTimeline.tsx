import { memo, useDeferredValue, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Icon } from '../../ui/icons';
import { useMeasuredWindow } from '../../ui/measured-window';
import type { RunStore } from '../run-tree';
import { STEP_KINDS, type StepKind, stepOfToolCall, type Timeline, type TimelineStep, timelineRows } from '../timeline';
import { TIMELINE_CAP } from '../use-run-events';

/** A row's height before it was measured (one line of text). */
const ROW_ESTIMATE = 30;

/**
 * The subtree's steps in words, oldest first, under the agent doing them; narrowed to the run picked in
 * the tree, filtered by kind of step, searched. Only the rows in view are in the DOM (a long run has
 * thousands), and a view at the end follows new steps as they come.
 */
export function RunTimeline({
  timeline,
  store,
  dropped,
  version,
  selectedRunId,
  onSelectRun,
  focus,
}: {
  timeline: Timeline;
  store: RunStore;
  dropped: number;
  version: number;
  selectedRunId: string | undefined;
  onSelectRun: (runId: string | undefined) => void;
  /** A tool call to bring into view and mark (a checkpoint's "Show in the timeline"); `nonce` asks again for the same one. */
  focus?: { toolCallId: string; nonce: number };
}) {
  const [kind, setKind] = useState<StepKind | ''>('');
  const [search, setSearch] = useState('');
  const [focusedKey, setFocusedKey] = useState<string | undefined>();
  // A new focus clears the filters that could hide its step (while rendering: no effect's second render).
  const [seenFocus, setSeenFocus] = useState(focus);
  if (focus !== seenFocus) {
    setSeenFocus(focus);
    const step = focus ? stepOfToolCall(timeline, focus.toolCallId) : undefined;
    setFocusedKey(step?.key);
    if (step) {
      setKind('');
      setSearch('');
    }
  }
  // The focus last brought into view: each is scrolled to once, not again as the timeline grows.
  const revealed = useRef<unknown>(undefined);
  const revealFrame = useRef(0);
  useLayoutEffect(() => () => cancelAnimationFrame(revealFrame.current), []);
  // Typing stays responsive while a long timeline is filtered: the list follows a keystroke behind if it must.
  const query = useDeferredValue(search);
  const rows = useMemo(
    () => timelineRows(timeline.steps, { runId: selectedRunId, kind: kind || undefined, search: query }),
    [timeline, selectedRunId, kind, query, version], // eslint-disable-line react-hooks/exhaustive-deps -- the timeline grows in place; version says when
  );
  const keys = useMemo(() => rows.map((r) => r.key), [rows]);
  const scroller = useRef<HTMLDivElement>(null);
  const shown = useMeasuredWindow(scroller, keys, ROW_ESTIMATE, true);
  const stepCount = rows.length - rows.filter((r) => r.kind === 'agent').length;

  // Once the focused step is a row: scroll the list to it, then the page, when the window has drawn it.
  useLayoutEffect(() => {
    const key = focusedKey;
    if (key === undefined || revealed.current === seenFocus || !keys.includes(key)) return;
    revealed.current = seenFocus;
    shown.scrollToKey(key);
    let tries = 0;
    const reveal = () => {
      const row = scroller.current?.querySelector<HTMLElement>(`[data-window-key="${CSS.escape(key)}"]`);
      if (row) {
        row.scrollIntoView({ block: 'center' });
        row.focus({ preventScroll: true });
      } else if (++tries < 30) revealFrame.current = requestAnimationFrame(reveal);
    };
    // Not cancelled by the next render (this effect runs after each): only when the timeline goes.
    cancelAnimationFrame(revealFrame.current);
    revealFrame.current = requestAnimationFrame(reveal);
  });
  const narrowedTo = selectedRunId ? store.runs.get(selectedRunId) : undefined;

  return (
    <section className="run-timeline" aria-labelledby="timeline-title">
      <div className="history-head">
        <h2 id="timeline-title">Timeline</h2>
        <div className="timeline-controls">
          <div className="field inline-field">
            <label htmlFor="timeline-kind">Show</label>
            <select id="timeline-kind" value={kind} onChange={(e) => setKind(e.target.value as StepKind | '')}>
              <option value="">Every step</option>
              {STEP_KINDS.map(({ kind: k, label }) => (
                <option key={k} value={k}>
                  {label} ({timeline.counts.get(k) ?? 0})
                </option>
              ))}
            </select>
          </div>
          <div className="field inline-field">
            <label htmlFor="timeline-search">
              <Icon name="search" />
              <span className="visually-hidden">Search the timeline</span>
            </label>
            <input id="timeline-search" type="search" placeholder="Search the timeline" value={search} onChange={(e) => setSearch(e.target.value)} />
          </div>
        </div>
      </div>
      <p className="timeline-scope small">
        {narrowedTo ? (
          <>
            Only the run of <strong>{narrowedTo.agentId}</strong>: {stepCount} {stepCount === 1 ? 'step' : 'steps'}.{' '}
            <button type="button" className="link-button" onClick={() => onSelectRun(undefined)}>
              Show every run
            </button>
          </>
        ) : (
          <>
            {stepCount} {stepCount === 1 ? 'step' : 'steps'} of the run and the runs below it{query.trim() || kind ? ' match' : ''}. Pick a run in the tree
            to see only its steps.
          </>
        )}
        {dropped > 0 && ` The oldest ${dropped} steps are not kept in the page (it keeps the newest ${TIMELINE_CAP}); the audit log has every event.`}
      </p>
      <div className="timeline-scroll" ref={scroller}>
        <ol
          className="timeline-list"
          data-query={query}
          aria-label="Steps of the run and the runs below it, oldest first"
          style={{ paddingTop: shown.above, paddingBottom: shown.below }}
        >
          {rows
            .slice(shown.first, shown.end)
            .map((row) =>
              row.kind === 'agent' ? (
                <AgentRow
                  key={row.key}
                  rowKey={row.key}
                  agent={row.agent}
                  runId={row.runId}
                  narrowed={selectedRunId === row.runId}
                  measure={shown.measure}
                  onSelectRun={onSelectRun}
                />
              ) : (
                <StepRow key={row.key} step={row.step} measure={shown.measure} focused={row.key === focusedKey} />
              ),
            )}
        </ol>
        {rows.length === 0 && <p className="muted timeline-empty">No step matches.</p>}
      </div>
    </section>
  );
}

// Rows take what they show, not the row objects (new on every fold): a row re-renders only when its step changed.
const AgentRow = memo(function AgentRow({
  rowKey,
  agent,
  runId,
  narrowed,
  measure,
  onSelectRun,
}: {
  rowKey: string;
  agent: string;
  runId: string;
  narrowed: boolean;
  measure: (element: HTMLElement | null) => void;
  onSelectRun: (runId: string | undefined) => void;
}) {
  return (
    <li className="timeline-agent" data-window-key={rowKey} ref={measure}>
      <Icon name="agent" />
      <strong>{agent}</strong>
      {!narrowed && runId && (
        <button type="button" className="link-button small" onClick={() => onSelectRun(runId)} aria-label={`Only this run: ${agent}`}>
          only this run
        </button>
      )}
    </li>
  );
});

/** One formatter for every row's time: toLocaleTimeString builds a new one per call. */
const TIME = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

const StepRow = memo(function StepRow({
  step,
  measure,
  focused,
}: {
  step: TimelineStep;
  measure: (element: HTMLElement | null) => void;
  /** The step a checkpoint pointed to: marked, and focusable so the page can move focus there. */
  focused: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <li
      className={`timeline-step step-${step.kind}${focused ? ' timeline-step-focused' : ''}`}
      data-window-key={step.key}
      data-kind={step.kind}
      data-tool-call-id={toolCallIdOf(step)}
      tabIndex={focused ? -1 : undefined}
      ref={measure}
    >
      <div className="timeline-line">
        <time className="muted small" dateTime={step.at}>
          {TIME.format(Date.parse(step.at))}
        </time>
        <span className="timeline-words">
          <strong>{step.agent}</strong> {step.words.map((segment, i) => (typeof segment === 'string' ? segment : <code key={i}>{segment.code}</code>))}
          {step.pending && <span className="muted">…</span>}
        </span>
        <button
          type="button"
          className="link-button small"
          aria-expanded={open}
          aria-label={`${open ? 'Hide raw' : 'Raw'} ${step.events.length === 1 ? 'event' : 'events'} of this step`}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide raw' : 'Raw'}
        </button>
      </div>
      {open && (
        // Focusable: a long event scrolls, and a keyboard must be able to scroll it.
        <pre className="mono event-json" tabIndex={0} aria-label="Raw events of this step">
          {JSON.stringify(step.events, null, 2)}
        </pre>
      )}
    </li>
  );
});

/** The tool call a step is (its first event's), for the checkpoints that point to it. */
function toolCallIdOf(step: TimelineStep): string | undefined {
  if (step.kind !== 'tool' && step.kind !== 'problem') return undefined;
  const data = step.events[0]?.data as { payload?: { toolCallId?: unknown }; toolCallId?: unknown } | undefined;
  const id = data?.payload?.toolCallId ?? data?.toolCallId;
  return typeof id === 'string' ? id : undefined;
}
