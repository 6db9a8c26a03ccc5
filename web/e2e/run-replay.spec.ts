import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations } from './support';

// issue 26 in the console, on the real service, the real Copilot CLI (model calls routed through
// Switchboard) and the scripted model: an ended two-level run is replayed with the Replay button (the new
// run's page says what it replays and that nothing differed, and the original lists it), and forked with
// "Fork from here" on its lead's last model call with a message, which only that call sends to the model.

interface RunView {
  runId: string;
  status: string;
  output?: string | null;
}

test('Replay and "Fork from here" start new runs linked both ways, the fork answered by the model from its fork point only', async ({
  page,
  api,
  model,
}) => {
  test.setTimeout(180_000);
  const s = Date.now().toString(36);
  const lead = `lead-${s}`;
  const worker = `worker-${s}`;
  model.setScript([
    { name: 'the lead after the fork message', systemIncludes: `LEAD_${s}`, messagesInclude: `FORK_NOTE_${s}`, answer: { text: `FORKED_${s}` } },
    { name: 'the lead wraps up', systemIncludes: `LEAD_${s}`, lastIsToolResult: true, answer: { text: `LEAD_DONE_${s}` } },
    {
      name: 'the lead delegates',
      systemIncludes: `LEAD_${s}`,
      answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: worker, prompt: 'Find it.' } }] },
    },
    { name: 'the worker answers', systemIncludes: `WORKER_${s}`, answer: { text: `FOUND_${s}` } },
  ]);
  await api.createAgent({ id: worker, name: worker, system_message: { mode: 'append', content: `WORKER_${s} You find things.` } });
  await api.createAgent({ id: lead, name: lead, system_message: { mode: 'append', content: `LEAD_${s} You delegate.` } });
  const original = await api.call<RunView>('POST', '/api/runs', { agentId: lead, prompt: 'Go.', background: false });
  expect(original.status).toBe('completed');

  await page.goto(`/runs/${original.runId}`);
  await expect(page.getByTestId('run-status')).toHaveText('completed');
  await page.getByRole('button', { name: 'Replay' }).click();
  await expect(page).not.toHaveURL(new RegExp(`/runs/${original.runId}$`));
  const replayId = page.url().split('/runs/')[1];
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 60_000 });
  await expect(page.getByTestId('replay-of')).toContainText('A replay of the original run');
  // The header says the same, with who asked for it from the console (not "Started through the API").
  const startedBy = (await api.call<{ startedBy: { kind: string; name: string } }>('GET', `/api/runs/${replayId}`)).startedBy;
  await expect(page.getByTestId('run-started')).toHaveText(
    `A replay of run ${original.runId}, started by ${startedBy.kind === 'key' ? 'key ' : ''}${startedBy.name} in the console`,
  );
  await expect(page.getByText('Started through the API')).toHaveCount(0);
  await expect(page.getByText('No difference from the original so far.')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByTestId('replay-of').getByRole('link', { name: 'the original run' }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${original.runId}$`));
  await expect(page.getByRole('list', { name: 'Replays and forks' }).getByRole('link', { name: 'Replay' })).toHaveAttribute('href', `/runs/${replayId}`);

  // Fork from the lead's last call (the one after the worker answered), with a message.
  const calls = page.getByRole('list', { name: 'Model calls of the subtree' }).getByRole('article', { name: `Model call by ${lead} to gpt-4.1` });
  await expect(calls).toHaveCount(2);
  const before = model.requests.length;
  await calls.nth(1).getByRole('button', { name: 'Fork from here' }).click();
  const form = page.getByRole('form', { name: `Fork from this call of ${lead}` });
  await form.getByRole('textbox', { name: `Message for ${lead} at this call` }).fill(`FORK_NOTE_${s}: say it differently.`);
  await form.getByRole('button', { name: 'Fork' }).click();
  await expect(page).not.toHaveURL(new RegExp(`/runs/${original.runId}$`));
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 60_000 });
  await expect(page.getByTestId('replay-of')).toContainText('A fork of the original run');
  await expect(page.getByTestId('replay-of')).toContainText(`FORK_NOTE_${s}`);
  const fork = await api.call<RunView>('GET', `/api/runs/${page.url().split('/runs/')[1]}`);
  expect(fork.output).toBe(`FORKED_${s}`);
  // Only the call at the fork point reached the model.
  expect(model.requests.length - before).toBe(1);

  // issue 39: in the Runs list, the fork's worker (played back from the record) is marked a fork too, not a replay.
  const workers = await api.call<{ runs: Array<{ runId: string; rootRunId: string }> }>('GET', `/api/runs?agentId=${worker}`);
  const originalWorker = workers.runs.find((r) => r.rootRunId === original.runId)!.runId;
  await page.goto(`/runs?root=${fork.runId}`);
  const forkWorker = page.getByRole('row').filter({ has: page.getByRole('link', { name: new RegExp(`^${worker}, run `) }) });
  await expect(forkWorker).toHaveCount(1);
  await expect(forkWorker.getByRole('link', { name: `a fork of run ${originalWorker}` })).toHaveText('fork');
  await expect(page.getByRole('link', { name: /^a replay of run / })).toHaveCount(0);

  // After the worker's prompt is edited, a replay reports where it first differs, both versions.
  const workerNow = await api.call<Record<string, unknown>>('GET', `/api/agents/${worker}`);
  await api.call('PUT', `/api/agents/${worker}`, { ...workerNow, system_message: { mode: 'append', content: `WORKER_${s} EDITED_${s}` } });
  await page.goto(`/runs/${original.runId}`);
  await page.getByRole('button', { name: 'Replay' }).click();
  await expect(page).not.toHaveURL(new RegExp(`/runs/${original.runId}$`));
  await expect(page.getByTestId('run-status')).toHaveText('stopped', { timeout: 60_000 });
  const report = page.getByRole('region', { name: 'Divergence report' });
  await expect(report).toContainText(`call 1 of ${worker} differs in its system prompt`, { timeout: 10_000 });
  await expect(report.getByLabel('Replayed version')).toContainText(`EDITED_${s}`);
  await expect(report.getByLabel('Original version')).not.toContainText(`EDITED_${s}`);
});
