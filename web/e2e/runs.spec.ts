import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, inBothThemes, screenshot } from './support';

// The run page and the runs list on the real service, the real Copilot CLI and the scripted model: a
// root run whose agent delegates two background children with agent_run (they work until stopped: their
// model calls hang), watched live, then stopped from the page with its whole subtree.

interface RunSummary {
  runId: string;
  status: string;
}

function treeRow(page: Page, runId: string) {
  return page.locator(`.run-tree tbody tr[data-run="${runId}"]`);
}

async function barWidth(page: Page, runId: string): Promise<number> {
  return parseFloat((await page.locator(`[data-bar="${runId}"]`).getAttribute('style'))?.match(/width:\s*([\d.]+)%/)?.[1] ?? '0');
}

test('a run tree grows live, Stop names the running descendants and stops them all, and the runs list filters them', async ({ page, api, model }) => {
  test.setTimeout(180_000);
  const s = Date.now().toString(36);
  const chief = `chief-${s}`;
  const worker = `worker-${s}`;
  const scout = `scout-${s}`;
  model.setScript([
    {
      name: 'chief delegates twice in the background',
      systemIncludes: `CHIEF_${s}`,
      lastIsToolResult: false,
      answer: {
        toolCalls: [
          { name: 'agent_run', arguments: { agent_id: worker, prompt: 'Work on PART_ONE.', background: true } },
          { name: 'agent_run', arguments: { agent_id: worker, prompt: 'Work on PART_TWO.', background: true } },
        ],
      },
    },
    // Everyone keeps working until stopped: the root and its children stay running while the page watches.
    { name: 'chief waits', systemIncludes: `CHIEF_${s}`, lastIsToolResult: true, answer: { hang: true } },
    { name: 'worker works', systemIncludes: `WORKER_${s}`, answer: { hang: true } },
    { name: 'scout works', systemIncludes: `SCOUT_${s}`, answer: { hang: true } },
  ]);
  for (const [id, marker] of [
    [chief, `CHIEF_${s}`],
    [worker, `WORKER_${s}`],
    [scout, `SCOUT_${s}`],
  ]) {
    await api.createAgent({ id, name: id, description: `The ${id}`, system_message: { mode: 'append', content: `${marker} you work.` } });
  }

  const root = await api.call<RunSummary>('POST', '/api/runs', { agentId: chief, prompt: 'Lead the work.', background: true });
  await page.goto(`/runs/${root.runId}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${chief}: Lead the work.`);
  await expect(page.getByTestId('run-status')).toHaveText('running');
  // Who started it, from the run's own record: the key the test calls the API with.
  const startedBy = (await api.call<{ startedBy: { kind: string; name: string } }>('GET', `/api/runs/${root.runId}`)).startedBy;
  await expect(page.getByTestId('run-started')).toHaveText(`Started by ${startedBy.kind === 'key' ? 'key ' : ''}${startedBy.name} through the API`);
  await expect(treeRow(page, root.runId)).toBeVisible();
  // Nothing below reloads the page: what appears comes through its live subscription.
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

  // The chief's two background children appear under it, running.
  const rows = page.locator('.run-tree tbody tr');
  await expect(rows).toHaveCount(3, { timeout: 60_000 });
  await expect(rows.filter({ hasText: worker })).toHaveCount(2);
  for (const row of await rows.filter({ hasText: worker }).all()) await expect(row.locator('.badge')).toHaveText('running');
  await expect(page.getByRole('status').filter({ hasText: /^3 runs, [1-9]\d* tokens, 2 tool calls in the subtree$/ })).toBeVisible();

  // A run started under the root while the page is open joins the tree, and its bar grows with the clock.
  const late = await api.call<RunSummary>('POST', '/api/runs', { agentId: scout, prompt: 'Scout ahead.', background: true, parentRunId: root.runId });
  await expect(rows).toHaveCount(4);
  await expect(treeRow(page, late.runId).locator('.badge')).toHaveText('running');
  const first = await barWidth(page, late.runId);
  await expect.poll(() => barWidth(page, late.runId), { timeout: 15_000 }).toBeGreaterThan(first);
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

  // Collapse and expand; a click opens a node's details.
  await page.getByRole('button', { name: new RegExp(`^Collapse the runs under ${chief} `) }).click();
  await expect(rows).toHaveCount(1);
  await page.getByRole('button', { name: new RegExp(`^Expand the runs under ${chief} `) }).click();
  await expect(rows).toHaveCount(4);
  await treeRow(page, late.runId).getByRole('button', { name: scout }).click();
  const details = page.getByRole('complementary', { name: scout });
  await expect(details).toContainText('Scout ahead.');
  await expect(details).toContainText(late.runId);

  // The timeline, narrowed to the run picked (the scout): its start in words, its raw event one click away.
  const timeline = page.getByRole('list', { name: /^Steps of the run/ });
  await expect(page.getByText(`Only the run of ${scout}`)).toBeVisible();
  const given = timeline.locator('.timeline-step', { hasText: `${scout} was given a task by ${chief} (in the background): “Scout ahead.”` });
  await expect(given).toBeVisible();
  await given.getByRole('button', { name: 'Raw event of this step' }).click();
  await expect(given.locator('pre')).toContainText(`"runId": "${late.runId}"`);
  await page.getByRole('button', { name: 'Show every run' }).click();
  await page.getByLabel('Show', { exact: true }).selectOption('run');
  await expect(timeline.locator('.timeline-step', { hasText: 'was given a task' })).toHaveCount(3);
  await page.getByLabel('Show', { exact: true }).selectOption('');

  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await screenshot(page, 'run-page', { fullPage: false });

  // Stop says what it will stop before it does.
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop this run?' });
  await expect(dialog.getByTestId('stop-count')).toContainText('This stops the run and 3 running descendants.');
  await dialog.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(dialog).toBeHidden();
  for (const row of await rows.all()) await expect(row.locator('.badge')).toHaveText('stopped', { timeout: 30_000 });
  await expect(page.getByTestId('run-status')).toHaveText('stopped');
  await expect(page.getByTestId('stop-reason')).toHaveText('Stopped by an operator (API): stopped from the console');
  await expect(page.getByRole('status').filter({ hasText: /^Stopped 4 runs\.$/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();
  // The service agrees: every run of the tree is stopped, the children by the cascade from the root.
  for (const id of [root.runId, late.runId]) expect((await api.call<RunSummary>('GET', `/api/runs/${id}`)).status).toBe('stopped');

  // The runs list: the tree's runs, filtered by root run, status and agent; a time range with none.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Runs' })).toBeVisible();
  const listed = page.locator('.run-table tbody tr');
  await page.getByLabel('Root run').fill(root.runId);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(listed).toHaveCount(4);
  for (const row of await listed.all()) await expect(row.locator('.badge')).toHaveText('stopped');
  await page.getByLabel('Agent').selectOption(worker);
  await page.getByLabel('Status').selectOption('stopped');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(listed).toHaveCount(2);
  await expect(listed.filter({ hasText: worker })).toHaveCount(2);
  await page.getByLabel('Status').selectOption('running');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByRole('heading', { name: 'No runs' })).toBeVisible();
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.getByLabel('Started from').fill('2099-01-01T00:00');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByRole('heading', { name: 'No runs' })).toBeVisible();
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.getByLabel('Root run').fill(root.runId);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(listed).toHaveCount(4);
  // Each row says the agent, its task, who started it (the API's caller for the root, the chief for its runs), status and cost.
  const rootRow = listed.filter({ has: page.getByRole('link', { name: `${chief}, run ${root.runId}` }) });
  await expect(rootRow.getByRole('cell').nth(1)).toHaveText('Lead the work.');
  await expect(rootRow.getByTestId('run-started-by')).toHaveText(/through the API$/);
  await expect(listed.filter({ hasText: 'Work on PART_ONE.' }).getByTestId('run-started-by')).toHaveText(`agent ${chief}`);
  await expect(listed.filter({ hasText: 'Work on PART_ONE.' }).getByRole('link', { name: new RegExp(`^${worker}, run `) })).toBeVisible();
  // The subtree's cost as its model calls sum it (priced here).
  await expect(rootRow.getByTestId('run-list-cost')).toHaveText(/^[\d.,]+ USD$/);

  // A row opens its run's page.
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await screenshot(page, 'runs');
  await listed
    .filter({ hasText: scout })
    .getByRole('link', { name: `${scout}, run ${late.runId}` })
    .click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${scout}: Scout ahead.`);
  await expect(page.getByTestId('stop-reason')).toContainText(`when run ${root.runId} was stopped`);

  // Resume launches it again on its own thread; the page follows it back to running.
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Resumed: it is running again\.$/ })).toBeVisible();
  await expect(page.getByTestId('run-status')).toHaveText('running');
  await expect(page.getByTestId('stop-reason')).toBeHidden();
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Stop this run?' }).getByTestId('stop-count')).toContainText('nothing below it is running');
  await page.getByRole('dialog', { name: 'Stop this run?' }).getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(page.getByTestId('run-status')).toHaveText('stopped', { timeout: 30_000 });
});

test('the runs list follows a status change without a reload, and an unknown run says so', async ({ page, api, model }) => {
  test.setTimeout(120_000);
  const s = Date.now().toString(36);
  const solo = `solo-${s}`;
  model.setScript([{ name: 'solo works', systemIncludes: `SOLO_${s}`, answer: { hang: true } }]);
  await api.createAgent({ id: solo, name: solo, description: 'Works alone', system_message: { mode: 'append', content: `SOLO_${s} you work.` } });
  const run = await api.call<RunSummary>('POST', '/api/runs', { agentId: solo, prompt: 'Work alone.', background: true });

  await page.goto('/runs');
  const row = page.locator(`.run-table tbody tr[data-run="${run.runId}"]`);
  await expect(row.locator('.badge')).toHaveText('running');

  // Its page while its one model call waits: the calls' line counts the call the list shows, cost unknown.
  await model.waitForRequests((r) => r.rule === 'solo works');
  await page.goto(`/runs/${run.runId}`);
  const calls = page.getByRole('list', { name: 'Model calls of the subtree' }).getByRole('listitem');
  await expect(calls).toHaveCount(1);
  await expect(page.getByTestId('model-call-spend')).toHaveText('1 model call, none ended yet · cost unknown');
  await expect(calls.first().getByTestId('model-call-cost')).toHaveText('unknown');
  // Paused: the header and the tree's row say the same.
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(page.getByTestId('run-status')).toHaveText('paused');
  await expect(page.locator(`.run-tree tbody tr[data-run="${run.runId}"]`).getByTestId('tree-run-status')).toHaveText('paused');

  await page.goto('/runs');
  await api.call('POST', `/api/runs/${run.runId}/stop`, { reason: 'enough' });
  await expect(row.locator('.badge')).toHaveText('stopped', { timeout: 15_000 });
  // issue 39: its one call, cancelled by the stop while it waited for the (priced) model, spent nothing:
  // 0 in the price table's currency, not a bare 0 (an unpriced model's would be unknown).
  await expect(row.getByTestId('run-list-cost')).toHaveText('0 USD');

  await page.goto('/runs/no-such-run');
  await expect(page.getByRole('heading', { level: 1, name: 'Run not found' })).toBeVisible();
});

test('a run’s budget shows on its page, used of allowed, and the stop names the limit it passed', async ({ page, api, model }) => {
  const s = Date.now().toString(36);
  const spender = `spender-${s}`;
  // Each answer costs 300 tokens and calls a tool, until the budget stops the run.
  model.setScript([
    {
      name: 'the run keeps spending',
      systemIncludes: `SPENDER_${s}`,
      answer: { toolCalls: [{ name: 'agent_output', arguments: { run_id: 'no-such-run' } }] },
      delayMs: 400,
      usage: { prompt_tokens: 200, completion_tokens: 100 },
    },
  ]);
  await api.createAgent({ id: spender, name: 'Spender', system_message: { content: `SPENDER_${s} You work.` } });
  const { runId } = await api.call<{ runId: string }>('POST', '/api/runs', {
    agentId: spender,
    prompt: 'Work.',
    background: true,
    budget: { maxTokens: 1500, maxToolCalls: 50 },
  });

  await page.goto(`/runs/${runId}`);
  const budget = page.getByRole('list', { name: 'Budget' });
  await expect(budget.locator('[data-limit="max_tokens"]')).toContainText(/tokens\s*\d+ of 1500/);
  await expect(budget.locator('[data-limit="max_tool_calls"]')).toContainText('of 50');
  await expect(page.getByTestId('run-status')).toHaveText('stopped', { timeout: 30_000 });
  await expect(page.getByTestId('stop-reason')).toHaveText(/^Stopped by its budget: tokens \d+ of 1500/);
  // Past the limit, nothing is left.
  await expect(budget.locator('[data-limit="max_tokens"]')).toContainText('(0 left)');
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
});
