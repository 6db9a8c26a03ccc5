import { Query } from '@nestjs/cqrs';
import type { Observable } from 'rxjs';
import type { ApprovalView } from '../../approval-view';

/**
 * Approvals as they are asked, decided and expired, from now on. Emitted after the commit; the
 * `approvals` table is an inline projection, so each change carries the item as it now reads.
 */
export class WatchApprovals extends Query<Observable<ApprovalView>> {}
