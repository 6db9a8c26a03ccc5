import * as fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test, TEST_API_TOKEN } from './fixtures';
import { expectNoSeriousA11yViolations, inBothThemes, screenshot } from './support';

// The audit page reads the log through GraphQL and downloads its exports with the API token; the health
// page shows what /health and /health/ready answer. The service runs with a token so the export's path
// through it is the one users take.
test.use({ apiToken: TEST_API_TOKEN });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function signIn(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'API token' });
  await dialog.getByLabel('API token').fill(TEST_API_TOKEN);
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await expect(dialog).toBeHidden();
}

const TITLES: Record<string, string> = {
  database: 'Database',
  migrations: 'Migrations',
  projections: 'Projections',
  copilotCli: 'Copilot CLI',
  provider: 'Model provider',
};

test('the health page shows each readiness check as the service reports it, failing ones with their reason', async ({ page, service }) => {
  await page.goto('/health-status');
  await expect(page.getByRole('heading', { level: 1, name: 'Health' })).toBeVisible();
  // Without the token the service says only ok or failing per check: the page asks for the token.
  await expect(page.getByRole('dialog', { name: 'API token' })).toBeVisible();
  await signIn(page);
  const withToken = { headers: { authorization: `Bearer ${TEST_API_TOKEN}` } };
  const ready = await (await fetch(`${service.url}/health/ready`, withToken)).json();
  const detail = await (await fetch(`${service.url}/health`, withToken)).json();
  await expect(page.getByRole('status').filter({ hasText: /^(Ready|Not ready)/ })).toContainText(ready.status === 'ready' ? 'Ready' : 'Not ready');
  for (const [name, check] of Object.entries<Json>(ready.checks)) {
    const card = page.getByRole('listitem', { name: new RegExp(`^${TITLES[name]} (OK|Failing)$`) });
    await expect(card).toContainText(check.ok ? 'OK' : 'Failing');
    if (!check.ok) await expect(card).toContainText(check.reason);
    await expect(card).toHaveClass(check.ok ? /\bok\b/ : /\bfailing\b/);
  }
  // Each async projection with its state and lag.
  const projections = page.getByRole('table', { name: 'Async projections' });
  for (const projection of detail.projections as Json[]) {
    await expect(projections.getByRole('row', { name: new RegExp(`^${projection.name} `) })).toContainText(projection.state);
  }
  await expect(page.getByRole('listitem', { name: /Database/ })).toContainText(detail.database.file);
  // The model provider (the scripted model server) answered Health's look at it, and when is shown.
  const provider = page.getByRole('listitem', { name: /^Model provider (OK|Failing)$/ });
  await expect(provider).toContainText('Answeringyes');
  await expect(provider).toContainText(`${ready.checks.provider.endpoint}`);
  await expect(provider).toContainText('Last answered');

  // It refreshes by itself: a new check time appears without a reload.
  const checkedAt = await page
    .getByRole('status')
    .filter({ hasText: /Checked at/ })
    .textContent();
  await expect(page.getByRole('status').filter({ hasText: /Checked at/ })).not.toHaveText(checkedAt!, { timeout: 8000 });

  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await screenshot(page, 'health');
});

test('the audit page lists, filters by agent, pages, expands, and exports JSONL and CSV equal to the API', async ({ page, api }) => {
  const suffix = Date.now().toString(36);
  const reviewer = `reviewer-${suffix}`;
  const planner = `planner-${suffix}`;
  // issue 39: the page names agents by their display names; the filter and the entry keep their ids.
  const names = { [reviewer]: `Reviewer ${suffix}`, [planner]: `Planner ${suffix}` };
  for (const id of [reviewer, planner]) {
    await api.createAgent({ id, name: names[id], description: `The ${id}`, system_message: { content: 'Do the work.' } });
  }
  await api.updateAgent(reviewer, { description: 'Reviews pull requests' });
  // The audit log is an async projection: wait until it has the reviewer's two events.
  const apiEntries = async (filter: string): Promise<Json[]> => {
    const entries: Json[] = [];
    for (let after = 0; ;) {
      const pageOf = await api.call<Json>('GET', `/api/audit?${filter}&after=${after}&limit=1000`);
      entries.push(...pageOf.entries);
      if (!pageOf.hasMore) return entries;
      after = pageOf.nextAfter;
    }
  };
  await expect.poll(async () => (await apiEntries(`agentId=${reviewer}`)).length).toBe(2);

  await page.goto('/audit');
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Audit' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Audit log entries' });
  await expect(table.getByRole('cell', { name: names[planner], exact: true }).first()).toBeVisible();

  await page.getByLabel('Agent').fill(reviewer);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Page 1/ })).toHaveText('Page 1: 2 entries matching the filters');
  const expected = await apiEntries(`agentId=${reviewer}`);
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(2);
  // Newest first by default: the update, then the creation.
  const newestFirst = [...expected].reverse();
  for (const [i, entry] of newestFirst.entries()) {
    await expect(rows.nth(i)).toContainText(entry.eventType);
    await expect(rows.nth(i).getByRole('cell').nth(6)).toHaveText(names[reviewer]);
  }
  await expect(table.getByRole('cell', { name: names[planner], exact: true })).toHaveCount(0);

  // A row's data expands in place: the whole entry as the API has it, and the event's payload.
  const updated = newestFirst[0];
  expect(updated.eventType).toBe('agent.updated');
  await page.getByRole('button', { name: `Show entry ${updated.position}` }).click();
  const shown = JSON.parse((await page.getByLabel(`Entry ${updated.position}`, { exact: true }).textContent())!);
  expect(shown).toEqual(updated);
  const payload = JSON.parse((await page.getByLabel(`Payload of entry ${updated.position}`).textContent())!);
  expect(JSON.stringify(payload.data)).toContain('Reviews pull requests');
  expect(payload.metadata).toMatchObject({ correlationId: reviewer });

  // issue 27: who did it. The token's holder is the operator (a key, by its name; issue 39: not "<id> <kind>");
  // the Actor filter narrows to an actor's id.
  await expect(rows.nth(0).getByRole('cell').nth(3)).toHaveText('operator key');
  expect(shown).toMatchObject({ actorKind: 'key', actorId: 'operator', agentId: reviewer });
  await page.getByLabel('Actor').fill('somebody-else');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Page 1/ })).toHaveText('Page 1: 0 entries matching the filters');
  await page.getByLabel('Actor').fill('operator');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Page 1/ })).toHaveText('Page 1: 2 entries matching the filters');

  // A kind narrows to its events; the oldest-first order is one choice away.
  await page.getByLabel('Kind').selectOption('session');
  await expect(page.getByRole('status').filter({ hasText: /^Page 1/ })).toHaveText('Page 1: 0 entries matching the filters');
  await page.getByLabel('Kind').selectOption('agent');
  await page.getByLabel('Order').selectOption('oldest');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText(expected[0].eventType);
  await page.getByLabel('Kind').selectOption('');
  await page.getByLabel('Order').selectOption('newest');

  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await screenshot(page, 'audit');

  // Both exports download what the filter selects, equal to the API's pages.
  const jsonl = await download(page, 'Export JSONL');
  expect(jsonl.name).toMatch(/^switchboard-audit-.+\.jsonl$/);
  expect(
    jsonl.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line)),
  ).toEqual(expected);
  const csv = await download(page, 'Export CSV');
  expect(csv.name).toMatch(/\.csv$/);
  const [header, ...csvRows] = csv.text
    .trim()
    .split('\r\n')
    .map((line) => line.split(','));
  expect(header).toEqual([
    'position',
    'streamId',
    'eventType',
    'actor',
    'actorKind',
    'actorId',
    'actorName',
    'correlationId',
    'causationId',
    'recordedAt',
    'sessionId',
    'runId',
    'agentId',
    'toolName',
    'decision',
  ]);
  expect(csvRows).toEqual(expected.map((entry) => header.map((column) => (entry[column] === null ? '' : String(entry[column])))));

  // Paging: with everything shown, Next walks the cursor and Previous comes back.
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.getByRole('button', { name: 'Apply filters' }).click();
  const all = (await apiEntries('hideCli=true')).reverse();
  const previous = page.getByRole('button', { name: 'Previous' });
  const next = page.getByRole('button', { name: 'Next' });
  await expect(previous).toBeDisabled();
  if (all.length > 50) {
    await next.click();
    await expect(page.getByRole('status').filter({ hasText: /^Page 2/ })).toContainText(`Page 2: ${Math.min(50, all.length - 50)} entr`);
    await expect(rows.first()).toContainText(String(all[50].position));
    await previous.click();
    await expect(page.getByRole('status').filter({ hasText: /^Page 1/ })).toBeVisible();
  } else {
    await expect(next).toBeDisabled();
  }
  await expect(rows.first()).toContainText(String(all[0].position));
});

// Last in the file: it stops the worker's model server, which no test after it could use.
test('a model provider that stops answering shows on Health and in the chat, with what to fix', async ({ page, api, modelServer }) => {
  const session = await api.call<Json>('POST', '/api/sessions', {});
  await modelServer.stop();
  await page.goto('/health-status');
  await signIn(page);
  await expect(page.getByRole('status').filter({ hasText: /^Ready, but degraded/ })).toContainText('Model provider', { timeout: 15_000 });
  const provider = page.getByRole('listitem', { name: 'Model provider Failing' });
  await expect(provider).toContainText('cannot be reached');
  await expect(provider).toContainText('COPILOT_PROVIDER_BASE_URL');
  await expect(provider).toContainText('Answeringno');
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));

  await page.goto(`/sessions/${session.sessionId}`);
  const banner = page.getByRole('alert').filter({ hasText: 'The model provider is not answering' });
  await expect(banner).toContainText('COPILOT_PROVIDER_BASE_URL');
  await expect(banner.getByRole('link', { name: 'See Health' })).toBeVisible();
});

async function download(page: Page, button: string): Promise<{ name: string; text: string }> {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: button }).click();
  const file = await downloading;
  return { name: file.suggestedFilename(), text: fs.readFileSync(await file.path(), 'utf8') };
}
