import { memo } from 'react';
import { Link } from 'react-router';
import type { LibraryQuery } from '../gql/graphql';
import { Icon } from '../ui/icons';
import { shortReason } from './library-filter';

export type LibraryEntry = LibraryQuery['agents'][number];

/** One agent of the library: a card in the grid, a row in the list (the same markup, styled apart). */
export const AgentCard = memo(function AgentCard({
  agent,
  names,
  mayStart,
}: {
  agent: LibraryEntry;
  names: ReadonlyMap<string, string>;
  /** Whether the reader's role may start sessions (operate). */
  mayStart: boolean;
}) {
  const href = `/agents/${agent.id}`;
  const titleId = `agent-${agent.id}-name`;
  const team = agent.subAgents.map((id) => names.get(id) ?? id);
  return (
    <article className="agent-card" aria-labelledby={titleId}>
      <div className="agent-card-head">
        <span className="agent-icon" aria-hidden="true">
          {agent.icon || <Icon name="agent" size={20} />}
        </span>
        <div className="agent-title">
          <h2 id={titleId}>
            <Link to={href}>{agent.name}</Link>
          </h2>
          <span className="agent-id">{agent.id}</span>
        </div>
      </div>
      <p className="agent-description">{agent.description || <span className="muted">No description</span>}</p>
      <div className="badges">
        {agent.model && <span className="badge model">{agent.model}</span>}
        {team.length > 0 && (
          <span className="badge team" title={`Sub-agents: ${team.join(', ')}`} aria-label={`Team of ${team.length}: ${team.join(', ')}`}>
            <Icon name="team" /> {team.length} sub-agent{team.length === 1 ? '' : 's'}
          </span>
        )}
        {agent.composable ? (
          <span className="badge composable" title="Can be a sub-agent of a team">
            <Icon name="composable" /> Composable
          </span>
        ) : null}
        {agent.subAgentProblems.length > 0 && (
          <span className="badge problem" title={agent.subAgentProblems.map((p) => p.reason).join('\n')}>
            <Icon name="warning" /> {agent.subAgentProblems.length} sub-agent problem{agent.subAgentProblems.length === 1 ? '' : 's'}
          </span>
        )}
      </div>
      {!agent.composable && (
        <p className="not-composable" title={agent.composableReasons.join('\n')}>
          Not a sub-agent: {agent.composableReasons.map(shortReason).join(', ')}
        </p>
      )}
      {agent.includedIn.length > 0 && <p className="included-in">In the team of {agent.includedIn.map((id) => names.get(id) ?? id).join(', ')}</p>}
      {mayStart && (
        <div className="agent-card-actions">
          <Link className="start-session" to={`/sessions/new?agent=${agent.id}`}>
            Start session
          </Link>
          <Link className="schedule-agent" to={`/schedules/new?agent=${agent.id}`}>
            Schedule…
          </Link>
        </div>
      )}
    </article>
  );
});
