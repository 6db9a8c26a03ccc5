import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { eq } from 'drizzle-orm';
import { concatMap, filter, map, type Observable } from 'rxjs';
import { ReadModelDatabase } from '../../../database';
import { EventStore } from '../../../event-store';
import { isApprovalEvent } from '../../approval.events';
import { type ApprovalRow, type ApprovalView, toApprovalView } from '../../approval-view';
import { WatchApprovals } from './watch-approvals.query';

@QueryHandler(WatchApprovals)
export class WatchApprovalsHandler implements IQueryHandler<WatchApprovals, Observable<ApprovalView>> {
  constructor(
    private readonly store: EventStore,
    private readonly db: ReadModelDatabase,
  ) {}

  async execute(): Promise<Observable<ApprovalView>> {
    return this.store.committed$.pipe(
      filter(isApprovalEvent),
      // One read at a time, in commit order: a change is never overtaken by the one after it.
      concatMap((event) => this.row(event.data.approvalId)),
      filter((row) => row !== undefined),
      map(toApprovalView),
    );
  }

  private async row(approvalId: string): Promise<ApprovalRow | undefined> {
    const { approvals } = this.db.tables;
    return (await this.db.orm.select().from(approvals).where(eq(approvals.approvalId, approvalId)).limit(1))[0];
  }
}
