import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorNote } from '../ui/ErrorNote';
import { type BlamedLine, type ChangesTarget, type LineStep, loadBlame } from './changes-api';
import { shortCommit } from './changes';
import type { StepLinks } from './ChangesView';

const ORIGIN_WORDS: Record<BlamedLine['origin'], string> = { base: 'base', committed: 'step', uncommitted: 'not committed' };

/**
 * issue 42: who last wrote each line of one file: the file as the worktree has it, a line per button, and
 * the step behind the line picked: its run and agent, its tool call (linked to the timeline where the page
 * has it), the model call that asked for it, and who approved it.
 */
export function LineAttribution({ target, file, steps }: { target: ChangesTarget; file: string; steps?: StepLinks }) {
  const blame = useQuery({ queryKey: ['workspace', target.kind, target.id, 'blame', file], queryFn: () => loadBlame(target, file) });
  const [picked, setPicked] = useState<number | undefined>();
  const lines = blame.data?.lines ?? [];
  const line = lines.find((l) => l.line === picked);
  return (
    <section className="line-attribution" aria-label={`Who wrote each line of ${file}`} data-testid="line-attribution">
      <ErrorNote error={blame.error} title="The attribution could not be loaded" />
      {blame.isPending && <p className="muted small">Reading who wrote each line…</p>}
      {lines.length > 0 && (
        <div className="attribution-layout">
          <ol className="attributed-lines">
            {lines.map((l) => (
              <li key={l.line} className={`attributed-line origin-${l.origin}`}>
                <button type="button" aria-pressed={picked === l.line} onClick={() => setPicked(l.line)} data-testid="attributed-line">
                  <span className="line-number">{l.line}</span>
                  <span className="line-who">{l.step ? (l.step.agentName ?? 'a step') : ORIGIN_WORDS[l.origin]}</span>
                  <code className="line-text">{l.text || ' '}</code>
                </button>
              </li>
            ))}
          </ol>
          <div className="line-step" role="status" aria-live="polite" data-testid="line-step">
            {line ? <StepOf line={line} steps={steps} /> : <p className="muted small">Pick a line to see the step that last wrote it.</p>}
          </div>
        </div>
      )}
    </section>
  );
}

function StepOf({ line, steps }: { line: BlamedLine; steps?: StepLinks }) {
  const step = line.step;
  if (line.origin === 'base') return <p className="small">Line {line.line} was there when the worktree started.</p>;
  if (line.origin === 'uncommitted') return <p className="small">Line {line.line} is not committed yet: the step writing it has not ended.</p>;
  if (!step)
    return (
      <p className="small">
        Line {line.line} came with commit {shortCommit(line.commit ?? '')}, which no step recorded (a merge’s own lines).
      </p>
    );
  return (
    <dl className="step-facts small">
      <dt>Line</dt>
      <dd>{line.line}</dd>
      <dt>Agent</dt>
      <dd>{step.agentName ?? 'unknown'}</dd>
      <dt>Run</dt>
      <dd>
        {step.runId ? <Link to={`/runs/${step.runId}`}>{step.runId.slice(0, 8)}</Link> : <Link to={`/sessions/${step.sessionId}`}>the session</Link>}
      </dd>
      <dt>Step</dt>
      <dd>
        {step.toolName ? <code>{step.toolName}</code> : causeWords(step)} <code title={step.commit}>{shortCommit(step.commit)}</code>
        {step.toolCallId && steps?.has(step.toolCallId) && (
          <>
            {' '}
            <button type="button" className="link-button small" onClick={() => steps.show(step.toolCallId!)}>
              Show in the timeline
            </button>
          </>
        )}
      </dd>
      <dt>Model call</dt>
      <dd>{step.modelCallId ? <code title={step.modelCallId}>{step.modelCallId.slice(0, 8)}</code> : 'not recorded'}</dd>
      <dt>Approved</dt>
      <dd>
        {step.approval
          ? `${step.approval.decision === 'approve' ? 'approved' : 'denied'} by ${step.approval.decider?.name ?? step.approval.decidedBy ?? 'unknown'}`
          : 'no person was asked'}
      </dd>
    </dl>
  );
}

function causeWords(step: LineStep): string {
  return step.cause === 'recovered' ? 'recovered after a stop' : step.cause === 'before-merge' ? 'before a merge' : 'at the end of a turn';
}
