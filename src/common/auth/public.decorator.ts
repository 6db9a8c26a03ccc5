import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'switchboard:isPublic';

/** Marks a route that needs no API token (health checks). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
