import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { eq } from 'drizzle-orm';
import { ReadModelDatabase } from '../../../database';
import { ApprovalBroker } from '../../approval-broker';
import { ApprovalNotFoundError } from '../../approval.errors';
import { type ApprovalView, toApprovalView } from '../../approval-view';
import { DecideApproval } from './decide-approval.command';

@CommandHandler(DecideApproval)
export class DecideApprovalHandler implements ICommandHandler<DecideApproval, ApprovalView> {
  constructor(
    private readonly broker: ApprovalBroker,
    private readonly db: ReadModelDatabase,
  ) {}

  async execute({ approvalId, input, decidedBy }: DecideApproval): Promise<ApprovalView> {
    await this.broker.decide(approvalId, { ...input, decidedBy });
    // The projection is inline: the row reflects the decision just recorded.
    const { approvals } = this.db.tables;
    const [row] = await this.db.orm.select().from(approvals).where(eq(approvals.approvalId, approvalId)).limit(1);
    if (!row) throw new ApprovalNotFoundError(approvalId);
    return toApprovalView(row);
  }
}
