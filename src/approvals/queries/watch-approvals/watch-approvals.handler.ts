import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { eq } from 'drizzle-orm';
import { filter, map, type Observable } from 'rxjs';
import { approvals } from '../../../database/schema';
import { SqliteDatabase } from '../../../database/sqlite-database';
import { EventStore } from '../../../event-store/event-store';
import { isApprovalEvent } from '../../approval.events';
import { type ApprovalView, toApprovalView } from '../../approval-view';
import { WatchApprovals } from './watch-approvals.query';

@QueryHandler(WatchApprovals)
export class WatchApprovalsHandler implements IQueryHandler<WatchApprovals, Observable<ApprovalView>> {
  constructor(
    private readonly store: EventStore,
    private readonly database: SqliteDatabase,
  ) {}

  async execute(): Promise<Observable<ApprovalView>> {
    return this.store.committed$.pipe(
      filter(isApprovalEvent),
      map((event) => this.database.orm.select().from(approvals).where(eq(approvals.approvalId, event.data.approvalId)).get()),
      filter((row) => row !== undefined),
      map(toApprovalView),
    );
  }
}
