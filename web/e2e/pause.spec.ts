import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations } from './support';

// issue 26 in the console, on the real service, the real Copilot CLI and the scripted model: Pause on a
// run's page holds its next step (here a tool call, after an answer that was already at the model), the
// badge says paused and how many steps wait, and Unpause lets the run finish.

test('Pause holds a run at its next step and Unpause lets it finish', async ({ page, api, model }) => {
  test.setTimeout(120_000);
  const s = Date.now().toString(36);
  const agent = `pausable-${s}`;
  let letAnswer!: () => void;
  const answerMayGo = new Promise<void>((resolve) => (letAnswer = resolve));
  model.setScript([
    {
      name: 'first call: waits for the test, then asks for a tool',
      systemIncludes: `PAUSABLE_${s}`,
      lastIsToolResult: false,
      until: () => answerMayGo,
      answer: { toolCalls: [{ name: 'agent_output', arguments: { run_id: 'no-such-run' } }] },
    },
    { name: 'then done', systemIncludes: `PAUSABLE_${s}`, lastIsToolResult: true, answer: { text: 'PAUSABLE_DONE' } },
  ]);
  await api.createAgent({ id: agent, name: agent, description: 'Pausable', system_message: { mode: 'append', content: `PAUSABLE_${s} you work.` } });
  const run = await api.call<{ runId: string }>('POST', '/api/runs', { agentId: agent, prompt: 'Work.', background: true });
  await page.goto(`/runs/${run.runId}`);
  await expect(page.getByTestId('run-status')).toHaveText('running');
  await model.waitForRequests((r) => r.systemText.includes(`PAUSABLE_${s}`), 1, 60_000);

  const pause = page.getByRole('button', { name: 'Pause', exact: true });
  await expect(pause).toHaveAttribute('title', /A tool already running finishes/);
  await pause.click();
  await expect(page.getByTestId('run-status')).toHaveText('paused');
  await expect(page.getByRole('status').filter({ hasText: 'Paused: the run and every run under it wait at their next step.' })).toBeVisible();
  // The answer already at the model arrives; the tool call it asks for waits.
  letAnswer();
  await expect(page.getByTestId('pause-note')).toContainText(/by console: 1 step waiting/, { timeout: 15_000 });
  expect(model.requests.filter((r) => r.systemText.includes(`PAUSABLE_${s}`))).toHaveLength(1);
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Unpause' }).click();
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 60_000 });
  await expect(page.getByTestId('pause-note')).toHaveCount(0);
  expect(model.requests.filter((r) => r.systemText.includes(`PAUSABLE_${s}`))).toHaveLength(2);
});
