import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { IdentityGuard } from './identity.guard';
import { MeController } from './me/me.controller';
import { PrincipalResolver } from './principal-resolver';

/**
 * issue 27: who calls. Resolves the principal of every request (bootstrap token, contributed sign-in
 * methods, else today's open loopback as a local admin) through the global IdentityGuard, and answers
 * GET /api/me.
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  controllers: [MeController],
  providers: [PrincipalResolver, IdentityGuard],
  exports: [PrincipalResolver, IdentityGuard],
})
export class IdentityModule {}
