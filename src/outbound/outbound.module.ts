import { Global, Module } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:net';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { OutboundUrlGuard } from './outbound-url-guard';

/** The one outbound-URL guard, configured from SWITCHBOARD_OUTBOUND_ALLOW and aware of this service's own port. */
@Global()
@Module({
  providers: [
    {
      provide: OutboundUrlGuard,
      inject: [SWITCHBOARD_CONFIG, HttpAdapterHost],
      useFactory: (config: SwitchboardConfig, adapterHost: HttpAdapterHost) => {
        // Kept once bound: the guard asks on every webhook call, and server.address() costs a syscall each time.
        let bound: number | undefined;
        return new OutboundUrlGuard({
          allow: config.security.outboundAllow,
          // The bound port (tests listen on port 0); before listen, the configured one.
          ownPort: () => {
            if (bound !== undefined) return bound;
            const address = (adapterHost.httpAdapter?.getHttpServer() as Server | undefined)?.address();
            if (address && typeof address === 'object') return (bound = address.port);
            return config.port || undefined;
          },
        });
      },
    },
  ],
  exports: [OutboundUrlGuard],
})
export class OutboundModule {}
