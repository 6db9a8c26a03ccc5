import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Command } from '@nestjs/cqrs';
import { createHash, randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { printableName, InvalidInputError } from '../../../../common';
import { handleCommand, EventStore, apiKeyStreamId } from '../../../../event-store';
import type { Principal, Role } from '../../../principal';
import { apiKeyDecider } from '../../api-key.decider';
import { ApiKeysReadModel, type ApiKeyView } from '../../api-keys-read-model';

export const createApiKeySchema = z
  .object({
    name: printableName(z.string().trim().min(1).max(100)),
    role: z.enum(['viewer', 'operator', 'approver', 'admin'] satisfies Role[]),
    /** ISO 8601; absent: the key never expires. */
    expiresAt: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();

export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;

/** The one answer that carries the key: it is not stored, so it cannot be shown again. */
export interface CreatedApiKey {
  key: string;
  apiKey: ApiKeyView;
}

/** Who asks for a key: a principal, or a maintenance command on the host (`cli:keys-create-admin`). */
export type KeyMaker = Pick<Principal, 'kind' | 'id'>;

export class CreateApiKey extends Command<CreatedApiKey> {
  constructor(
    readonly input: CreateApiKeyInput,
    readonly by: KeyMaker,
  ) {
    super();
  }
}

/** `sbk_` and 43 base64url characters (32 random bytes); the first 12 characters are the listed prefix. */
export function newApiKeySecret(): string {
  return `sbk_${randomBytes(32).toString('base64url')}`;
}

export const secretDigest = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

@CommandHandler(CreateApiKey)
export class CreateApiKeyHandler implements ICommandHandler<CreateApiKey, CreatedApiKey> {
  constructor(
    private readonly store: EventStore,
    private readonly keys: ApiKeysReadModel,
  ) {}

  async execute({ input, by }: CreateApiKey): Promise<CreatedApiKey> {
    const now = Date.now();
    if (input.expiresAt !== undefined && Date.parse(input.expiresAt) <= now) {
      throw new InvalidInputError(`expiresAt ${input.expiresAt} is in the past: give a time to come, or none for a key that does not expire`);
    }
    const keyId = uuidv7();
    const key = newApiKeySecret();
    await handleCommand(
      this.store,
      apiKeyDecider,
      apiKeyStreamId(keyId),
      {
        type: 'create',
        key: {
          keyId,
          name: input.name,
          role: input.role,
          prefix: key.slice(0, 12),
          secretSha256: secretDigest(key),
          ...(input.expiresAt !== undefined ? { expiresAt: new Date(input.expiresAt).toISOString() } : {}),
          createdBy: by.id,
        },
        now,
        // Only the open local API has a local admin: the key it makes closes it (issue 39).
        closesOpenApi: by.kind === 'local',
      },
      { metadata: { actor: by.id } },
    );
    const apiKey = await this.keys.find(keyId);
    if (!apiKey) throw new Error(`API key ${keyId} was recorded but its row is missing`);
    return { key, apiKey };
  }
}
