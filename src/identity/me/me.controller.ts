import { Controller, Get, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PRINCIPAL_PROPERTY, type Principal } from '../principal';
import { meOf, type MeView } from './me-view';
import { DocumentedAnswers } from '../../common';
import { ME_ANSWERS } from './me.api-answers';

/** issue 27: who the caller is, as every transport authenticated them. */
@ApiTags('identity')
@DocumentedAnswers(ME_ANSWERS)
@Controller('api/me')
export class MeController {
  @Get()
  @ApiOperation({
    summary: 'The calling principal (kind user, key, operator or local; id; name), its role, what the role may do and how it authenticated',
  })
  me(@Req() request: { [PRINCIPAL_PROPERTY]: Principal }): MeView {
    return meOf(request[PRINCIPAL_PROPERTY]);
  }
}
