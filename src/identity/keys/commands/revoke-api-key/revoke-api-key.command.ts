import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { handleCommand, EventStore, apiKeyStreamId } from '../../../../event-store';
import type { Principal } from '../../../principal';
import { apiKeyDecider } from '../../api-key.decider';
import { ApiKeyNotFoundError } from '../../api-key.errors';
import { ApiKeysReadModel, type ApiKeyView } from '../../api-keys-read-model';

export class RevokeApiKey extends Command<ApiKeyView> {
  constructor(
    readonly keyId: string,
    readonly by: Principal,
  ) {
    super();
  }
}

/** Revoked in the commit: the inline projection marks the row, which every instance reads per request. */
@CommandHandler(RevokeApiKey)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKey, ApiKeyView> {
  constructor(
    private readonly store: EventStore,
    private readonly keys: ApiKeysReadModel,
  ) {}

  async execute({ keyId, by }: RevokeApiKey): Promise<ApiKeyView> {
    if (!(await this.keys.find(keyId))) throw new ApiKeyNotFoundError(keyId);
    await handleCommand(
      this.store,
      apiKeyDecider,
      apiKeyStreamId(keyId),
      { type: 'revoke', keyId, revokedBy: by.id, now: Date.now() },
      { metadata: { actor: by.id } },
    );
    const view = await this.keys.find(keyId);
    if (!view) throw new ApiKeyNotFoundError(keyId);
    return view;
  }
}
