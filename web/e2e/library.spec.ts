import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, inBothThemes, screenshot } from './support';

// The agent library and the editor on the real service (no token): build a team through the pages,
// read it back as badges and counts, import files, keep up with changes made elsewhere.

const resultCount = (page: Page) => page.getByRole('status').filter({ hasText: /^Showing \d+ of \d+ agents$/ });
const card = (page: Page, name: string) => page.getByRole('article', { name });
const filter = (page: Page, label: string) =>
  page.getByRole('group', { name: 'Filter agents' }).getByRole('button', { name: new RegExp(`^${label} \\d+$`) });

async function createThroughEditor(page: Page, agent: { name: string; icon: string; description: string; prompt: string; subAgents?: string[] }) {
  await page.getByRole('link', { name: 'New agent' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /New agent/ })).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill(agent.name);
  await page.getByLabel('Icon', { exact: true }).fill(agent.icon);
  await page.getByLabel('Description', { exact: true }).fill(agent.description);
  await page.getByLabel('System message', { exact: true }).fill(agent.prompt);
  const subAgents = page.getByRole('group', { name: /^Sub-agents \(/ });
  for (const name of agent.subAgents ?? []) await subAgents.getByRole('checkbox', { name: new RegExp(name) }).check();
  await page.getByRole('button', { name: 'Create agent' }).click();
  // Saved: the editor of the new agent, by its id.
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText(agent.name.toLowerCase().replace(/ /g, '-'));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Agents' }).click();
}

test('builds a team of three through the pages and shows it as badges, team counts and filter counts', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 2, name: 'No agents yet' })).toBeVisible();
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await screenshot(page, 'library-empty');

  await createThroughEditor(page, { name: 'Code Reviewer', icon: '🔍', description: 'Reviews pull requests for bugs', prompt: 'You review code.' });
  await createThroughEditor(page, { name: 'Test Writer', icon: '🧪', description: 'Writes unit tests', prompt: 'You write tests.' });

  // The lead's editor offers both as sub-agents; the draft check says the lead itself cannot be one.
  await page.getByRole('link', { name: 'New agent' }).click();
  const subAgents = page.getByRole('group', { name: /^Sub-agents \(/ });
  await expect(subAgents.getByRole('checkbox')).toHaveCount(2);
  await subAgents.getByRole('button', { name: 'All' }).click();
  await expect(subAgents.getByRole('checkbox', { checked: true })).toHaveCount(2);
  await subAgents.getByRole('button', { name: 'None' }).click();
  await expect(subAgents.getByRole('checkbox', { checked: true })).toHaveCount(0);
  await page.getByRole('link', { name: 'Cancel' }).click();
  await createThroughEditor(page, {
    name: 'Engineering Lead',
    icon: '🧭',
    description: 'Plans the work and delegates it',
    prompt: 'You lead a team.',
    subAgents: ['Code Reviewer', 'Test Writer'],
  });

  await expect(resultCount(page)).toHaveText('Showing 3 of 3 agents');
  const lead = card(page, 'Engineering Lead');
  await expect(lead).toContainText('2 sub-agents');
  await expect(lead.getByLabel('Team of 2: Code Reviewer, Test Writer')).toBeVisible();
  await expect(lead).toContainText('Not a sub-agent: has sub-agents of its own');
  for (const member of ['Code Reviewer', 'Test Writer']) {
    await expect(card(page, member)).toContainText('Composable');
    await expect(card(page, member)).toContainText('In the team of Engineering Lead');
  }
  await expect(filter(page, 'All')).toHaveText('All 3');
  await expect(filter(page, 'Teams')).toHaveText('Teams 1');
  await expect(filter(page, 'Composable')).toHaveText('Composable 2');
  await expect(filter(page, 'Standalone')).toHaveText('Standalone 0');

  await filter(page, 'Teams').click();
  await expect(filter(page, 'Teams')).toHaveAttribute('aria-pressed', 'true');
  await expect(resultCount(page)).toHaveText('Showing 1 of 3 agents');
  await expect(card(page, 'Engineering Lead')).toBeVisible();
  await filter(page, 'All').click();

  await page.getByLabel('Search agents').fill('tests');
  await expect(resultCount(page)).toHaveText('Showing 1 of 3 agents');
  await expect(card(page, 'Test Writer')).toBeVisible();
  await expect(filter(page, 'Composable')).toHaveText('Composable 1');
  await page.getByLabel('Search agents').fill('nothing like this');
  await expect(page.getByRole('heading', { name: 'No agent matches' })).toBeVisible();
  await page.getByRole('button', { name: 'Clear search and filter' }).click();
  await expect(resultCount(page)).toHaveText('Showing 3 of 3 agents');

  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await screenshot(page, 'library');
  await page.getByRole('group', { name: 'Layout' }).getByRole('button', { name: 'List' }).click();
  await screenshot(page, 'library-list');
  await page.getByRole('group', { name: 'Layout' }).getByRole('button', { name: 'Grid' }).click();

  await card(page, 'Engineering Lead').getByRole('link', { name: 'Engineering Lead' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /Engineering Lead/ })).toBeVisible();
  await expect(page.getByRole('group', { name: /^Sub-agents \(/ }).getByRole('checkbox', { checked: true })).toHaveCount(2);
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await screenshot(page, 'editor');
});

test('an import with a bad line names the file and the line, and imports nothing', async ({ page, api }) => {
  await page.goto('/agents');
  await expect(page.getByRole('heading', { level: 2, name: 'No agents yet' })).toBeVisible();
  const good = {
    name: 'reviewer.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ id: 'reviewer', name: 'Reviewer', description: 'Reviews', system_message: { content: 'Review.' } }, null, 2)),
  };
  const bad = {
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{\n  "id": "broken",\n  "name": "Broken",,\n  "description": "x"\n}\n'),
  };

  await page.locator('#import-files').setInputFiles([good, bad]);
  const refused = page.getByRole('alert').filter({ hasText: 'Nothing was imported.' });
  await expect(refused).toBeVisible();
  await expect(refused.getByRole('listitem')).toContainText(['broken.json:3']);
  expect(await api.listAgents()).toEqual([]);
  await expect(page.getByRole('heading', { level: 2, name: 'No agents yet' })).toBeVisible();
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await screenshot(page, 'library-import-refused');

  const fixed = { ...bad, buffer: Buffer.from(JSON.stringify({ id: 'broken', name: 'Broken', description: 'x', system_message: { content: 'Fixed.' } })) };
  await page.locator('#import-files').setInputFiles([good, fixed]);
  await expect(page.getByRole('status').filter({ hasText: /^Imported/ })).toHaveText('Imported 2 files: 2 created, 0 updated, 0 unchanged.');
  await expect(resultCount(page)).toHaveText('Showing 2 of 2 agents');

  // Export hands back the library as a zip of <id>.json files.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  expect((await download).suggestedFilename()).toMatch(/^switchboard-agents-\d{4}-\d{2}-\d{2}\.zip$/);
});

test('changes made elsewhere appear without a reload: created, made ineligible, deleted', async ({ page, api }) => {
  await page.goto('/agents');
  await expect(page.getByRole('heading', { level: 2, name: 'No agents yet' })).toBeVisible();
  // The subscription is in place once the service has taken it; until then a change is picked up by the
  // first reload only, so wait for the socket to carry a subscribe message.
  await expect.poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.includes('/graphql')))).toBe(true);

  await expect
    .poll(async () => {
      await api.createAgent({ id: `probe-${Date.now()}`, name: 'Probe', description: 'p', system_message: { content: 'p' } });
      return card(page, 'Probe').count();
    })
    .toBeGreaterThan(0);
  await api.deleteAllAgents();
  await expect(card(page, 'Probe')).toHaveCount(0);

  await api.createAgent({ id: 'reviewer', name: 'Reviewer', description: 'Reviews', system_message: { content: 'Review.' } });
  await expect(card(page, 'Reviewer')).toContainText('Composable');
  await api.updateAgent('reviewer', { tools: { custom: ['deploy'], builtin: [], excluded_builtin: [] } });
  await expect(card(page, 'Reviewer')).toContainText('Not a sub-agent: has custom tools');
  await api.deleteAgent('reviewer');
  await expect(card(page, 'Reviewer')).toHaveCount(0);
});

test('a change made while the live connection was down appears once it is back', async ({ page, api }) => {
  // Every WebSocket to /graphql goes through this route; while `dropping`, what the service sends is lost.
  let dropping = false;
  const pageSides: Array<{ close: (options?: { code?: number; reason?: string }) => Promise<void> }> = [];
  await page.routeWebSocket(/\/graphql$/, (ws) => {
    const server = ws.connectToServer();
    pageSides.push(ws);
    ws.onMessage((message) => server.send(message));
    server.onMessage((message) => {
      if (!dropping) ws.send(message);
    });
  });
  await api.createAgent({ id: 'reviewer', name: 'Reviewer', description: 'Reviews', system_message: { content: 'Review.' } });
  await page.goto('/agents');
  await expect(card(page, 'Reviewer')).toBeVisible();
  await expect.poll(() => pageSides.length).toBe(1);

  dropping = true;
  await api.createAgent({ id: 'planner', name: 'Planner', description: 'Plans', system_message: { content: 'Plan.' } });
  // The change was sent while nothing reached the page: the connection drops (a restart, say) and comes back.
  await pageSides[0].close({ code: 1012, reason: 'service restart' });
  dropping = false;
  await expect.poll(() => pageSides.length, { timeout: 15_000 }).toBe(2);
  await expect(card(page, 'Planner')).toBeVisible();
  await expect(resultCount(page)).toHaveText('Showing 2 of 2 agents');
});
