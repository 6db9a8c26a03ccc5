import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { ApiKeysReadModel, type ApiKeyView } from '../../api-keys-read-model';

export class ListApiKeys extends Query<ApiKeyView[]> {}

@QueryHandler(ListApiKeys)
export class ListApiKeysHandler implements IQueryHandler<ListApiKeys, ApiKeyView[]> {
  constructor(private readonly keys: ApiKeysReadModel) {}

  execute(): Promise<ApiKeyView[]> {
    return this.keys.list();
  }
}
