import { Query } from '@nestjs/cqrs';
import type { Observable } from 'rxjs';

export interface AgentLibraryChange {
  agentId: string;
  change: 'created' | 'updated' | 'deleted';
  /** The agent's version after the change (its stream position); a client that holds this version is current. */
  version: number;
  /** The event's global position, for ordering changes across agents. */
  position: number;
}

/**
 * Live changes to the agent library, whoever made them (another tab, the API, `agents:import`). Emitted
 * after the commit, and the `agents` table is an inline projection, so a read that follows sees the change.
 */
export class WatchAgentLibrary extends Query<Observable<AgentLibraryChange>> {}
