import 'reflect-metadata';
import { CommandBus } from '@nestjs/cqrs';
import { SingleBar, Presets } from 'cli-progress';
import { ProjectionRegistry, RebuildProjection, type RebuildProgress } from '../projections';
import { openMaintenanceApp, runMaintenanceCommand } from './maintenance-command';

/**
 * `npm run projections:rebuild -- <name>|--all`: empties a read model and replays the log into it.
 * Safe while the service runs (one IMMEDIATE transaction; appends wait for it), but a rebuild of a
 * large log holds the write lock for its whole duration, so prefer a quiet moment.
 */
async function main(argv: string[]): Promise<number> {
  const { app } = await openMaintenanceApp();
  try {
    const registry = app.get(ProjectionRegistry);
    const wanted = argv.includes('--all') ? registry.names() : argv.filter((a) => !a.startsWith('-'));
    if (wanted.length === 0) {
      process.stderr.write(`usage: npm run projections:rebuild -- <projection>... | --all\nprojections: ${registry.names().join(', ')}\n`);
      return 2;
    }
    const commandBus = app.get(CommandBus);
    for (const name of wanted) {
      const progress = progressReporter(name);
      const result = await commandBus.execute(new RebuildProjection(name, progress.update));
      progress.stop();
      process.stdout.write(`rebuilt ${result.projection}: ${result.eventsApplied} events, up to position ${result.position}\n`);
    }
    return 0;
  } finally {
    await app.close();
  }
}

/** A progress bar on a terminal, a line per 10% otherwise (CI logs, pipes). */
function progressReporter(name: string) {
  if (process.stdout.isTTY) {
    const bar = new SingleBar({ format: `${name} [{bar}] {percentage}% | {value}/{total} events` }, Presets.shades_classic);
    let started = false;
    return {
      update: ({ applied, total }: RebuildProgress) => {
        if (!started) bar.start(total, 0);
        started = true;
        bar.update(applied);
      },
      stop: () => started && bar.stop(),
    };
  }
  let lastDecile = -1;
  return {
    update: ({ applied, total }: RebuildProgress) => {
      const decile = total === 0 ? 10 : Math.floor((applied / total) * 10);
      if (decile !== lastDecile) process.stdout.write(`${name}: ${applied}/${total} events\n`);
      lastDecile = decile;
    },
    stop: () => undefined,
  };
}

runMaintenanceCommand('projections:rebuild', main);
