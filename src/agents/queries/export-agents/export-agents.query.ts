import { Query } from '@nestjs/cqrs';
import type { AgentFile } from '../../agent-files';

/** The library as a folder of `<id>.json` files in the spec's agent JSON format. */
export class ExportAgents extends Query<{ files: AgentFile[] }> {}
