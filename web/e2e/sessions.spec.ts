import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, inBothThemes, screenshot } from './support';

// The session list on the real service and the real Copilot CLI: sessions made through the REST API show
// up with their agent and team; killing the CLI interrupts them, and the list offers (and does) resume
// and destroy behind a confirmation. Sessions that talked show their title and last message, and are
// found by the search; a run's own session is not a chat, and shows only when asked for, naming its run.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

test('lists sessions with status, agent and sub-agents; resumes an interrupted one and destroys another', async ({ page, api, service }) => {
  await api.createAgent({
    id: 'researcher',
    name: 'Researcher',
    description: 'Finds facts',
    system_message: { mode: 'replace', content: 'You find facts.' },
  });
  await api.createAgent({ id: 'lead', name: 'Team Lead', description: 'Leads the team', sub_agents: ['researcher'] });
  const first = await api.call<Json>('POST', '/api/sessions', { agentId: 'lead' });
  const second = await api.call<Json>('POST', '/api/sessions', { agentId: 'lead', subAgents: [] });

  await page.goto('/sessions');
  await expect(page.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
  const rowOf = (id: string) => page.locator(`li[data-session="${id}"]`);
  for (const id of [first.sessionId, second.sessionId]) {
    await expect(rowOf(id).locator('.session-status')).toHaveText('active');
    await expect(rowOf(id).getByRole('link', { name: 'Team Lead' })).toBeVisible();
    // No message yet: no title, and the list says so.
    await expect(rowOf(id).getByRole('heading', { level: 2 })).toHaveText('Untitled session');
    await expect(rowOf(id)).toContainText('No messages yet');
  }
  await expect(rowOf(first.sessionId).getByRole('list', { name: 'Sub-agents of Untitled session' })).toHaveText('Researcher');
  await expect(rowOf(second.sessionId).getByRole('list')).toHaveCount(0);
  // Only an interrupted session resumes.
  await expect(rowOf(first.sessionId).getByRole('button', { name: 'Resume' })).toHaveCount(0);

  // The CLI dies: both sessions become interrupted, and the list follows without a reload.
  const cli = await api.call<Json>('GET', '/health');
  process.kill(cli.copilotCli.pid, 'SIGKILL');
  for (const id of [first.sessionId, second.sessionId]) await expect(rowOf(id)).toContainText('interrupted', { timeout: 20_000 });
  await expect(rowOf(first.sessionId).locator('.status-reason')).toContainText('SIGKILL');
  // The log says so on its own line, not as part of the HTTP request that happened to start the CLI.
  const exitLine = service
    .output()
    .split('\n')
    .find((line) => line.includes('Copilot CLI exited unexpectedly'));
  expect(exitLine && JSON.parse(exitLine)).toMatchObject({ signal: 'SIGKILL' });
  expect(JSON.parse(exitLine!)).not.toHaveProperty('req');

  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await screenshot(page, 'sessions');

  // Resume: a confirmation first; cancelling changes nothing.
  await rowOf(first.sessionId).getByRole('button', { name: 'Resume' }).click();
  let dialog = page.getByRole('dialog', { name: 'Resume this session?' });
  await expect(dialog).toContainText(first.sessionId);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect((await api.call<Json>('GET', `/api/sessions/${first.sessionId}`)).status).toBe('interrupted');

  // The restarted CLI takes the resume (it may still be starting: the service waits for it).
  await rowOf(first.sessionId).getByRole('button', { name: 'Resume' }).click();
  await dialog.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Session “Untitled session” resumed' })).toBeVisible({ timeout: 30_000 });
  const resumed = (await api.call<Json>('GET', `/api/sessions/${first.sessionId}`)).status;
  expect(['active', 'idle']).toContain(resumed);
  await expect(rowOf(first.sessionId).locator('.session-status')).toHaveText(resumed);

  // Destroy the other one.
  await rowOf(second.sessionId).getByRole('button', { name: 'Destroy' }).click();
  dialog = page.getByRole('dialog', { name: 'Destroy this session?' });
  await expect(dialog).toContainText(second.sessionId);
  await dialog.getByRole('button', { name: 'Destroy' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Session “Untitled session” destroyed' })).toBeVisible();
  await expect(rowOf(second.sessionId).locator('.session-status')).toHaveText('destroyed');
  await expect(rowOf(second.sessionId).getByRole('button')).toHaveCount(0);
  expect((await api.call<Json>('GET', `/api/sessions/${second.sessionId}`)).status).toBe('destroyed');
});

test("shows each chat by its title and last message, finds it by the search, and keeps runs' sessions out unless asked", async ({ page, api, model }) => {
  model.setScript([{ name: 'answer', answer: { text: 'The **build** is green; `main.ts` has two issues.' } }]);
  await api.createAgent({ id: 'reviewer', name: 'Reviewer', description: 'Reviews code' });
  const talk = async (sessionId: string, prompt: string) => {
    await api.call('POST', `/api/sessions/${sessionId}/messages`, { prompt });
    await expect.poll(async () => (await api.call<Json>('GET', `/api/sessions/${sessionId}`)).status, { timeout: 60_000 }).toBe('idle');
  };
  const review = await api.call<Json>('POST', '/api/sessions', { agentId: 'reviewer' });
  await talk(review.sessionId, 'Review main.ts for bugs');
  const plan = await api.call<Json>('POST', '/api/sessions', { agentId: 'reviewer' });
  // Other tests' sessions share the service: the words searched for are this test's own.
  const word = `release${Date.now().toString(36)}`;
  await talk(plan.sessionId, `Plan the <b>${word}</b> notes`);
  const run = await api.call<Json>('POST', '/api/runs', { agentId: 'reviewer', prompt: 'Check the tests' });
  await expect.poll(async () => (await api.call<Json>('GET', `/api/runs/${run.runId}`)).status, { timeout: 60_000 }).not.toBe('running');

  await page.goto('/sessions');
  const rowOf = (id: string) => page.locator(`li[data-session="${id}"]`);
  await expect(rowOf(review.sessionId).getByRole('heading', { level: 2 })).toHaveText('Review main.ts for bugs');
  // The model's markdown read as plain words; a prompt's HTML shown as text, never as markup.
  await expect(rowOf(review.sessionId)).toContainText('The build is green; main.ts has two issues.');
  await expect(rowOf(plan.sessionId).getByRole('heading', { level: 2 })).toHaveText(`Plan the <b>${word}</b> notes`);
  await expect(rowOf(plan.sessionId).locator('b')).toHaveCount(0);
  await expect(rowOf(review.sessionId).getByRole('link', { name: 'Reviewer' })).toBeVisible();
  await expect(rowOf(review.sessionId).locator('.session-status')).toHaveText('idle');
  // The run's own session is not listed as a chat (other tests' sessions may be).
  await expect(rowOf(`sub-agent-${run.runId}`)).toHaveCount(0);
  const chats = await page.locator('li[data-session]').count();

  // The search asks the service: title, last message and agent, in any case.
  const search = page.getByRole('searchbox', { name: 'Search sessions' });
  await search.fill(word.toUpperCase());
  await expect(page.locator('li[data-session]')).toHaveCount(1);
  await expect(rowOf(plan.sessionId)).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: `1 session matching “${word.toUpperCase()}”` })).toBeVisible();
  await search.fill('no such words');
  await expect(page.getByRole('status').filter({ hasText: 'No session matches “no such words”.' })).toBeVisible();
  await expect(page.locator('li[data-session]')).toHaveCount(0);
  await search.fill('');
  await expect(page.locator('li[data-session]')).toHaveCount(chats);

  // Asked for, the run's session shows which run it is part of, links there, and offers no chat actions.
  await page.getByRole('checkbox', { name: 'Also the sessions of runs' }).check();
  const runRow = rowOf(`sub-agent-${run.runId}`);
  await expect(runRow.getByRole('heading', { level: 2 })).toHaveText('Check the tests');
  await expect(runRow.getByRole('link', { name: 'Reviewer: Check the tests' })).toHaveAttribute('href', `/runs/${run.runId}`);
  await expect(runRow).toContainText('Part of run');
  await expect(runRow.getByRole('button')).toHaveCount(0);

  // (Accessibility in both themes: the test above checks the same list.)

  // At 360 px wide the list fits the screen: nothing in it scrolls sideways.
  await page.setViewportSize({ width: 360, height: 740 });
  await expect(runRow).toBeVisible();
  const list = page.getByRole('list', { name: 'Sessions, newest first' });
  expect(await list.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= window.innerWidth)).toBe(true);
});
