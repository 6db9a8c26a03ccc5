import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyPendingMigrations, defaultMigrationsFolder } from '../../src/database/migrations';
import { makeTempDir } from '../fixtures/temp-dir';

function tables(db: Database.Database): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
}

/** A copy of the real migrations plus one more whose second statement fails. */
function migrationsWithBrokenStep(dir: string): string {
  const folder = path.join(dir, 'migrations');
  fs.cpSync(defaultMigrationsFolder(), folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8'));
  const last = journal.entries[journal.entries.length - 1];
  const tag = '9999_broken';
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag });
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  fs.writeFileSync(
    path.join(folder, `${tag}.sql`),
    'CREATE TABLE half_done (id integer);\n--> statement-breakpoint\nINSERT INTO no_such_table VALUES (1);',
  );
  return folder;
}

describe('migrations', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  beforeEach(() => (tmp = makeTempDir()));
  afterEach(() => tmp.cleanup());

  it('applies pending migrations once; a second start changes nothing', () => {
    const db = new Database(path.join(tmp.dir, 'a.db'));
    applyPendingMigrations(db);
    const after = tables(db);
    expect(after).toEqual(expect.arrayContaining(['events', 'streams', 'stream_summaries', 'audit_log', 'projection_checkpoints']));
    applyPendingMigrations(db);
    expect(tables(db)).toEqual(after);
    db.close();
  });

  it('rolls back every statement of a failing migration run, on a fresh and on an existing database', () => {
    const broken = migrationsWithBrokenStep(tmp.dir);

    const fresh = new Database(path.join(tmp.dir, 'fresh.db'));
    expect(() => applyPendingMigrations(fresh, broken)).toThrow(/no_such_table/);
    expect(tables(fresh)).not.toContain('half_done');
    expect(tables(fresh)).not.toContain('events'); // the good migrations of the same run are undone too
    fresh.close();

    const existing = new Database(path.join(tmp.dir, 'existing.db'));
    applyPendingMigrations(existing);
    existing.prepare("INSERT INTO streams VALUES ('s', 1, 'now', 'now')").run();
    const before = tables(existing);
    const appliedBefore = existing.prepare('SELECT COUNT(*) AS n FROM __drizzle_migrations').get();
    expect(() => applyPendingMigrations(existing, broken)).toThrow();
    expect(tables(existing)).toEqual(before);
    expect(existing.prepare('SELECT COUNT(*) AS n FROM __drizzle_migrations').get()).toEqual(appliedBefore);
    expect(existing.prepare('SELECT stream_id FROM streams').all()).toEqual([{ stream_id: 's' }]);
    existing.close();
  });
});
