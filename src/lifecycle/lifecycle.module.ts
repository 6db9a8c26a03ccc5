import { Global, Module } from '@nestjs/common';
import { ServiceStopping } from './service-stopping';

/** What any module may need to know about the service's own lifecycle. */
@Global()
@Module({ providers: [ServiceStopping], exports: [ServiceStopping] })
export class LifecycleModule {}
