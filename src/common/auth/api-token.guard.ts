import { CanActivate, ExecutionContext, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { timingSafeEqual } from 'node:crypto';
import { SWITCHBOARD_CONFIG } from '../../config/config.module';
import type { SwitchboardConfig } from '../../config/switchboard-config';
import { IS_PUBLIC } from './public.decorator';

/** When SWITCHBOARD_API_TOKEN is set, every route but @Public() ones needs `Authorization: Bearer <token>`. */
@Injectable()
export class ApiTokenGuard implements CanActivate {
  private readonly expected?: Buffer;

  constructor(
    private readonly reflector: Reflector,
    @Inject(SWITCHBOARD_CONFIG) config: SwitchboardConfig,
  ) {
    this.expected = config.apiToken ? Buffer.from(config.apiToken) : undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.expected) return true;
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    const header = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>().headers
      .authorization;
    if (this.matches(header)) return true;
    throw new UnauthorizedException({
      code: 'unauthorized',
      message: 'Missing or wrong API token: send the header "Authorization: Bearer <SWITCHBOARD_API_TOKEN>"',
    });
  }

  /** Constant-time comparison so the token cannot be guessed byte by byte from response times. */
  matches(header: string | undefined): boolean {
    if (!this.expected || !header?.startsWith('Bearer ')) return false;
    const given = Buffer.from(header.slice('Bearer '.length).trim());
    return given.length === this.expected.length && timingSafeEqual(given, this.expected);
  }
}
