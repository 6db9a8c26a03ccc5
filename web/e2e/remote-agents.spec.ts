import { expect, test } from './fixtures';
import { startService } from './service';
import { expectNoSeriousA11yViolations, screenshot } from './support';

// issue 43, delegating out, in the console: an agent registered in the editor with another service's A2A
// card runs there. The other service is a second real Switchboard (its own process, SQLite file and
// Copilot CLI) on the same scripted model; its run page names the service and the task.

test('a remote agent registered in the editor runs on the other service, and its run page names the service and the task', async ({
  page,
  api,
  model,
}) => {
  test.setTimeout(180_000);
  const s = Date.now().toString(36);
  const other = await startService({ env: { COPILOT_PROVIDER_BASE_URL: model.baseUrl, COPILOT_PROVIDER_API_KEY: 'scripted' } });
  try {
    await other.api.createAgent({
      id: 'researcher',
      name: 'Researcher',
      description: 'Finds things out',
      system_message: { content: `RESEARCHER_${s} you research.` },
    });
    model.setScript([{ name: 'the researcher on the other service answers', systemIncludes: `RESEARCHER_${s}`, answer: { text: `FOUND_${s}` } }]);
    const card = `${other.url}/a2a/researcher/.well-known/agent-card.json`;

    await page.goto('/agents/new');
    await page.getByLabel('Name', { exact: true }).fill('Remote researcher');
    await page.getByLabel('Description', { exact: true }).fill('Researches, on the other service');
    await page.getByLabel('Remote A2A agent card', { exact: true }).fill(card);
    // Its prompt, model, tools and team are the other service's: the editor no longer offers them.
    await expect(page.getByLabel('System message', { exact: true })).toHaveCount(0);
    await expect(page.getByLabel('Model', { exact: true })).toHaveCount(0);
    await expect(page.getByRole('group', { name: /^Sub-agents \(/ })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Create agent' }).click();
    await expect(page).toHaveURL(/\/agents\/remote-researcher$/);
    expect((await api.getAgent('remote-researcher')) as unknown).toMatchObject({ remote: { a2a: card }, composable: true });

    const run = await api.call<{ runId: string }>('POST', '/api/runs', { agentId: 'remote-researcher', prompt: 'Find it out.', background: true });
    await page.goto(`/runs/${run.runId}`);
    await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 60_000 });
    const linked = (await api.call<{ remote: { taskId: string; usage: { totalTokens: number } } }>('GET', `/api/runs/${run.runId}`)).remote;
    // What the other service's task reported it used (its A2A metadata) is said beside it.
    expect(linked.usage.totalTokens).toBeGreaterThan(0);
    await expect(page.getByTestId('run-remote')).toHaveText(
      `Runs on another service over A2A: Researcher at ${new URL(other.url).host}, as task ${linked.taskId}; it reported ${linked.usage.totalTokens.toLocaleString('en')} tokens`,
    );
    await expect(page.getByRole('list', { name: /^Steps of the run/ })).toContainText(`was sent to Researcher over A2A as task ${linked.taskId}`);
    await expect(page.getByText(`FOUND_${s}`).first()).toBeVisible();
    // The task on the other service is its own run there, with the output the console shows here.
    expect(await other.api.call('GET', `/api/runs/${linked.taskId}`)).toMatchObject({ status: 'completed', agentId: 'researcher', output: `FOUND_${s}` });
    await screenshot(page, 'run-remote');
  } finally {
    await other.stop();
  }
});
