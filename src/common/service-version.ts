import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The service's version, from package.json at the top of the checkout or image (beside src/ and dist/, which
 * this file sits one level under either way): what the traces' `service.version` and the MCP server name.
 */
export function serviceVersion(): string {
  try {
    const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
