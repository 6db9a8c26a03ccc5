import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

/**
 * The peer event stores a bench compares with, from bench/peers (a package of its own: emmett pins a
 * uuid Switchboard has moved past, and the service must not carry a benchmark's dependencies). They
 * are installed there on first use, from the npm registry.
 */
const PEERS_DIR = path.join(__dirname, 'peers');

export function requirePeer<T>(name: string): T {
  if (!fs.existsSync(path.join(PEERS_DIR, 'node_modules', ...name.split('/')))) {
    console.log(`  installing the benchmark's peer ${name} into bench/peers (once)`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', PEERS_DIR], { stdio: 'inherit' });
  }
  return createRequire(path.join(PEERS_DIR, 'package.json'))(name) as T;
}

/** The installed version of a peer (its package.json is not among what it exports). */
export function peerVersion(name: string): string {
  const manifest = path.join(PEERS_DIR, 'node_modules', ...name.split('/'), 'package.json');
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** The part of @event-driven-io/emmett-postgresql the bench calls. */
export interface EmmettPostgres {
  getPostgreSQLEventStore(
    connectionString: string,
    options?: { connectionOptions?: { pooled?: boolean } },
  ): {
    appendToStream(
      streamName: string,
      events: Array<{ type: string; data: unknown }>,
      options?: { expectedStreamVersion?: bigint | 'STREAM_DOES_NOT_EXIST' },
    ): Promise<{ nextExpectedStreamVersion: bigint }>;
    schema: { migrate(): Promise<void> };
    close(): Promise<void>;
  };
}
