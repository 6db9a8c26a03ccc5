import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { type ModelCallSpendView, ModelCallsReadModel } from '../../model-calls-read-model';
import { GetModelCallSpend } from './get-model-call-spend.query';

@QueryHandler(GetModelCallSpend)
export class GetModelCallSpendHandler implements IQueryHandler<GetModelCallSpend, ModelCallSpendView[]> {
  constructor(private readonly calls: ModelCallsReadModel) {}

  execute({ keys }: GetModelCallSpend): Promise<ModelCallSpendView[]> {
    return this.calls.spendOf(keys);
  }
}
