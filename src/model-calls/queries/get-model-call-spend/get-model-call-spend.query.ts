import { Query } from '@nestjs/cqrs';
import type { ModelCallSpendView, SpendKey } from '../../model-calls-read-model';

/** Tokens and cost of sessions', runs' or subtrees' calls, in the order of `keys`. */
export class GetModelCallSpend extends Query<ModelCallSpendView[]> {
  constructor(readonly keys: readonly SpendKey[]) {
    super();
  }
}
