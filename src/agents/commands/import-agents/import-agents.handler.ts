import { Optional } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { OutboundUrlGuard } from '../../../outbound';
import { hookUrlProblems } from '../../agent-hooks';
import { EventStore, type StreamAppend } from '../../../event-store';
import type { AgentDefinition } from '../../agent-definition';
import { subAgentProblems } from '../../agent-eligibility';
import { type AgentFileProblem, lineOfSubAgentReference, parseAgentFile } from '../../agent-files';
import { AgentLibrary } from '../../agent-library';
import { AgentRepository } from '../../agent-repository';
import { AgentImportRejectedError } from '../../agent.errors';
import { ImportAgents, ImportAgentsResult } from './import-agents.command';

/**
 * Every file is parsed and every sub-agent reference checked (against the library as it will be
 * after the import) before anything is written; then one atomic appendMany. Nothing is half-imported.
 */
@CommandHandler(ImportAgents)
export class ImportAgentsHandler implements ICommandHandler<ImportAgents, ImportAgentsResult> {
  constructor(
    private readonly repository: AgentRepository,
    private readonly library: AgentLibrary,
    private readonly store: EventStore,
    /** Absent in the maintenance commands (the operator's files); present for the API's import. */
    @Optional() private readonly outbound?: OutboundUrlGuard,
  ) {}

  async execute({ files, actor }: ImportAgents): Promise<ImportAgentsResult> {
    const problems: AgentFileProblem[] = [];
    const incoming = new Map<string, { file: string; content: string; agent: AgentDefinition }>();
    for (const file of files) {
      const parsed = parseAgentFile(file);
      if (!parsed.ok) {
        problems.push(parsed.problem);
        continue;
      }
      const earlier = incoming.get(parsed.id);
      if (earlier) {
        problems.push({ file: file.name, message: `agent id ${parsed.id} is also defined in ${earlier.file}` });
        continue;
      }
      incoming.set(parsed.id, { file: file.name, content: file.content, agent: { id: parsed.id, ...parsed.fields, created_at: '', updated_at: '' } });
    }
    // The library as it is now, for every id the import names (its own and their sub-agents), in one read.
    const named = [...incoming.values()].flatMap(({ agent }) => [agent.id, ...agent.sub_agents]);
    const stored = await this.library.findMany(named);
    const lookup = (id: string) => incoming.get(id)?.agent ?? stored.get(id);
    for (const { file, content, agent } of incoming.values()) {
      for (const p of subAgentProblems(agent.id, agent.sub_agents, lookup)) {
        problems.push({ file, line: lineOfSubAgentReference(content, p.id), message: `sub_agents: ${p.reason}` });
      }
    }
    const outbound = this.outbound;
    if (outbound) {
      for (const { file, agent } of incoming.values()) {
        for (const p of await hookUrlProblems(agent.hooks, (url) => outbound.check(url))) problems.push({ file, message: `${p.field}: ${p.reason}` });
      }
    }
    if (problems.length > 0) throw new AgentImportRejectedError(problems);

    const result: ImportAgentsResult = { created: [], updated: [], unchanged: [] };
    const appends: StreamAppend[] = [];
    for (const { agent } of incoming.values()) {
      const { id, created_at: _c, updated_at: _u, ...fields } = agent;
      // Read before the plan; an agent created or deleted since is caught by the plan's stream version at append.
      const exists = stored.has(id);
      const append = await this.repository.plan(exists ? { type: 'UpdateAgent', id, fields } : { type: 'CreateAgent', id, fields }, {
        actor,
        correlationId: 'import',
      });
      if (!append) result.unchanged.push(id);
      else {
        appends.push(append);
        (exists ? result.updated : result.created).push(id);
      }
    }
    if (appends.length > 0) await this.store.appendMany(appends);
    return result;
  }
}
