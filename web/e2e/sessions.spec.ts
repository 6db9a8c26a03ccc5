import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, inBothThemes, screenshot } from './support';

// The session list on the real service and the real Copilot CLI: sessions made through the REST API show
// up with their agent and team; killing the CLI interrupts them, and the list offers (and does) resume
// and destroy behind a confirmation.

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
  const rowOf = (id: string) => page.locator(`tr[data-session="${id}"]`);
  for (const id of [first.sessionId, second.sessionId]) {
    await expect(rowOf(id).locator('.session-status')).toHaveText('active');
    await expect(rowOf(id).getByRole('link', { name: 'Team Lead' })).toBeVisible();
  }
  await expect(page.getByRole('list', { name: `Sub-agents of ${first.sessionId}` })).toHaveText('Researcher');
  await expect(rowOf(second.sessionId)).toContainText('None');
  // Only an interrupted session resumes.
  await expect(page.getByRole('button', { name: `Resume session ${first.sessionId}` })).toHaveCount(0);

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
  await page.getByRole('button', { name: `Resume session ${first.sessionId}` }).click();
  let dialog = page.getByRole('dialog', { name: 'Resume this session?' });
  await expect(dialog).toContainText(first.sessionId);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect((await api.call<Json>('GET', `/api/sessions/${first.sessionId}`)).status).toBe('interrupted');

  // The restarted CLI takes the resume (it may still be starting: the service waits for it).
  await page.getByRole('button', { name: `Resume session ${first.sessionId}` }).click();
  await dialog.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Session ${first.sessionId} resumed` })).toBeVisible({ timeout: 30_000 });
  const resumed = (await api.call<Json>('GET', `/api/sessions/${first.sessionId}`)).status;
  expect(['active', 'idle']).toContain(resumed);
  await expect(rowOf(first.sessionId).locator('.session-status')).toHaveText(resumed);

  // Destroy the other one.
  await page.getByRole('button', { name: `Destroy session ${second.sessionId}` }).click();
  dialog = page.getByRole('dialog', { name: 'Destroy this session?' });
  await dialog.getByRole('button', { name: 'Destroy' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Session ${second.sessionId} destroyed` })).toBeVisible();
  await expect(rowOf(second.sessionId).locator('.session-status')).toHaveText('destroyed');
  await expect(rowOf(second.sessionId).getByRole('button')).toHaveCount(0);
  expect((await api.call<Json>('GET', `/api/sessions/${second.sessionId}`)).status).toBe('destroyed');
});
