import { Body, Controller, Delete, Get, Param, Post, Req } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ZodValidationPipe, DocumentedAnswers } from '../../common';
import { PRINCIPAL_PROPERTY, type Principal } from '../principal';
import { CreateApiKey, createApiKeySchema, type CreateApiKeyInput } from './commands/create-api-key/create-api-key.command';
import { RevokeApiKey } from './commands/revoke-api-key/revoke-api-key.command';
import { ListApiKeys } from './queries/list-api-keys/list-api-keys.query';
import { API_KEYS_ANSWERS } from './api-keys.api-answers';

type Authenticated = { [PRINCIPAL_PROPERTY]: Principal };

/** issue 27: named API keys for programs, each with a role; shown once, stored hashed, revoked at once. */
@ApiTags('identity')
@DocumentedAnswers(API_KEYS_ANSWERS)
@Controller('api/keys')
export class ApiKeysController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Post()
  @ApiOperation({
    summary:
      'Create a named key with a role (and optional expiresAt); the answer carries the key, once: it is stored only hashed. The first key on the open local API must be an admin key (422 first_key_must_be_admin)',
  })
  create(@Body(new ZodValidationPipe(createApiKeySchema)) body: CreateApiKeyInput, @Req() request: Authenticated) {
    return this.commandBus.execute(new CreateApiKey(body, request[PRINCIPAL_PROPERTY]));
  }

  @Get()
  @ApiOperation({ summary: 'Every named key, newest first: name, role, prefix, expiry, revocation, last use (never the key)' })
  async list() {
    return { keys: await this.queryBus.execute(new ListApiKeys()) };
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Revoke a key: refused (401) from the next request on and its open streams closed, on every instance; 404 unknown, 409 revoked already',
  })
  revoke(@Param('id') id: string, @Req() request: Authenticated) {
    return this.commandBus.execute(new RevokeApiKey(id, request[PRINCIPAL_PROPERTY]));
  }
}
