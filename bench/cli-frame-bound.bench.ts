/**
 * What one oversized frame from the CLI costs in memory, with and without FrameSizeGuard in front of
 * vscode-jsonrpc's reader (the issue's reproduction: a 400 MB announced frame grew RSS by 255 MB).
 *
 *   node -r @swc-node/register bench/cli-frame-bound.bench.ts
 *
 * Each case runs in a fresh Node process: a StreamMessageReader reads a stream that announces
 * 400 MB and then delivers 256 MB of body in 64 KiB chunks, as a pipe from the CLI would; the
 * process reports its RSS growth after a GC (what is retained). `unguarded` is the reader alone (before), `guarded` the same reader
 * behind FrameSizeGuard with the default SWITCHBOARD_CLI_MAX_MESSAGE_BYTES (8 MiB). Nothing is asserted.
 */
import { spawnSync } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import { StreamMessageReader } from 'vscode-jsonrpc/node';
import { FrameSizeGuard } from '../src/copilot-cli/frame-size-guard';

const ANNOUNCED = 400_000_000;
const SENT = 256 * 1024 * 1024;
const CHUNK = 64 * 1024;
const LIMIT = 8 * 1024 * 1024;

async function runCase(kind: 'guarded' | 'unguarded'): Promise<void> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  const source = new PassThrough();
  let refused: string | undefined;
  const input: Readable = kind === 'guarded' ? source.pipe(new FrameSizeGuard(LIMIT, (reason) => (refused = reason))) : source;
  const reader = new StreamMessageReader(input);
  reader.listen(() => undefined);
  source.write(Buffer.from(`Content-Length: ${ANNOUNCED}\r\n\r\n`, 'ascii'));
  for (let sent = 0; sent < SENT; sent += CHUNK) {
    // A fresh buffer per chunk, as a pipe delivers them (one reused buffer would be held once, whatever the count).
    if (!source.write(Buffer.alloc(CHUNK, 'x'))) await new Promise((resolve) => source.once('drain', resolve));
  }
  await new Promise((resolve) => setImmediate(resolve));
  global.gc?.(); // what is retained, not garbage the chunks left behind
  const grown = process.memoryUsage().rss - before;
  process.stdout.write(JSON.stringify({ kind, rssGrowthMb: Math.round(grown / 1024 / 1024), refused: refused ?? null }));
  process.exit(0); // the reader's partial-message timer would keep waiting for the rest of the frame
}

function main(): void {
  const kind = process.argv[2];
  if (kind === 'guarded' || kind === 'unguarded') {
    void runCase(kind);
    return;
  }
  console.log(`one frame announcing ${ANNOUNCED} bytes, ${SENT / 1024 / 1024} MiB of it sent; limit ${LIMIT / 1024 / 1024} MiB`);
  for (const name of ['unguarded', 'guarded']) {
    const child = spawnSync(process.execPath, ['--expose-gc', '-r', '@swc-node/register', __filename, name], { encoding: 'utf8' });
    const result = JSON.parse(child.stdout || '{}') as { rssGrowthMb?: number; refused?: string | null };
    console.log(`${name.padEnd(10)} RSS +${result.rssGrowthMb} MB${result.refused ? `  (refused: ${result.refused})` : ''}`);
  }
}

main();
