import { Gauge, type Registry } from 'prom-client';
import { type MetricsContribution, ProvidesMetrics } from '../common';
import { Workspaces } from './workspaces';

/**
 * issue 42: the disk the worktrees on this machine use, from the same measure /health shows (walked at most
 * once a minute, off the event loop). Per workspace by session: retention bounds how many there are.
 */
@ProvidesMetrics()
export class WorkspaceMetrics implements MetricsContribution {
  constructor(private readonly workspaces: Workspaces) {}

  registerMetrics(registry: Registry): void {
    const workspaces = this.workspaces;
    new Gauge({
      name: 'switchboard_workspace_bytes',
      help: 'Bytes on disk of each worktree on this machine, by session (files and links, apparent sizes; measured at most once a minute)',
      labelNames: ['session_id'],
      registers: [registry],
      async collect() {
        const sizes = await workspaces.sizes();
        this.reset();
        for (const { sessionId, bytes } of sizes) this.set({ session_id: sessionId }, bytes);
      },
    });
    new Gauge({
      name: 'switchboard_workspace_worktrees',
      help: 'Worktree folders on this machine (0 with workspaces off)',
      registers: [registry],
      async collect() {
        const usage = await workspaces.usage();
        this.set(usage.enabled ? usage.worktrees : 0);
      },
    });
  }
}
