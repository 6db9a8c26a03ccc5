import { SetMetadata } from '@nestjs/common';
import type { SwitchboardConfig } from '../../config';

export const IS_PUBLIC = 'switchboard:isPublic';

/** Marks a route that needs no API token (health checks). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** Open without a token only when the configuration says so (SWITCHBOARD_METRICS_PUBLIC, say); documented as needing it. */
export const PublicWhen = (open: (config: SwitchboardConfig) => boolean) => SetMetadata(IS_PUBLIC, open);
