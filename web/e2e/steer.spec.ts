import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations } from './support';

// Steering from the console on the real service and the real Copilot CLI (the scripted model as its
// provider): while an agent waits on its model, a person says something to it in the Steer box; the
// agent's next model request carries it, and the chat and the run timeline show it where it landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const conversation = (page: Page) => page.getByRole('list', { name: 'Conversation' });

/** A promise the test settles: the scripted model holds an answer on it while the person steers. */
function gate(): { until: Promise<void>; open: () => void } {
  let open!: () => void;
  const until = new Promise<void>((resolve) => (open = resolve));
  return { until, open };
}

/** The held answer calls a tool the session lacks: the CLI answers it with an error and the turn goes on. */
const GOES_ON = { toolCalls: [{ name: 'steer_probe_missing_tool', arguments: {} }] };

test('a running turn is steered from the chat: the message reaches the next model request and shows in the conversation', async ({ page, api, model }) => {
  const s = Date.now().toString(36);
  const hold = gate();
  model.setScript([
    { name: 'held', messagesInclude: `WORK_${s}`, lastIsToolResult: false, times: 1, until: hold.until, answer: GOES_ON },
    { name: 'steered', messagesInclude: `STEER_${s}`, answer: { text: `STEERED_OK_${s}` } },
    { name: 'not steered', messagesInclude: `WORK_${s}`, answer: { text: `NOT_STEERED_${s}` } },
  ]);
  const { sessionId } = await api.call<Json>('POST', '/api/sessions', {});
  await page.goto(`/sessions/${sessionId}`);
  // Nothing runs: no Steer box.
  await expect(page.getByTestId('session-status')).toHaveText('active');
  await expect(page.getByRole('form', { name: 'Steer' })).toHaveCount(0);

  await page.getByRole('textbox', { name: 'Message' }).fill(`WORK_${s} please`);
  await page.getByRole('button', { name: 'Send' }).click();
  await model.waitForRequests((r) => r.rule === 'held');
  const box = page.getByRole('form', { name: 'Steer', exact: true });
  await expect(box).toBeVisible();
  await box.getByRole('textbox', { name: 'Steer the agent while it works' }).fill(`STEER_${s} only the summary`);
  await box.getByRole('button', { name: 'Steer' }).click();
  await expect(box.getByRole('status')).toHaveText(/^Sent to .*: its next model request carries it\.$/);
  const steer = conversation(page).getByRole('note', { name: 'Steered main' });
  await expect(steer).toContainText(`STEER_${s} only the summary`);
  await expect(steer).toContainText('by console');
  await expectNoSeriousA11yViolations(page);

  hold.open();
  await expect(conversation(page).getByLabel('Assistant').last()).toHaveText(`STEERED_OK_${s}`);
  await expect(page.getByTestId('session-status')).toHaveText('idle');
  await expect(page.getByRole('form', { name: 'Steer' })).toHaveCount(0);
  await api.call('DELETE', `/api/sessions/${sessionId}`);
});

test('a running run is steered from its page: its agent gets the message and the timeline shows it', async ({ page, api, model }) => {
  const s = Date.now().toString(36);
  const worker = `steer-worker-${s}`;
  const hold = gate();
  model.setScript([
    { name: 'held', systemIncludes: `WORKER_${s}`, lastIsToolResult: false, times: 1, until: hold.until, answer: GOES_ON },
    { name: 'steered', systemIncludes: `WORKER_${s}`, messagesInclude: `RUN_STEER_${s}`, answer: { text: `RUN_STEERED_${s}` } },
    { name: 'not steered', systemIncludes: `WORKER_${s}`, answer: { text: `RUN_NOT_STEERED_${s}` } },
  ]);
  await api.createAgent({ id: worker, name: 'Worker', system_message: { content: `WORKER_${s} You work.` } });
  const run = await api.call<Json>('POST', '/api/runs', { agentId: worker, prompt: 'Work on it.', background: true });
  await model.waitForRequests((r) => r.rule === 'held');
  await page.goto(`/runs/${run.runId}`);
  await expect(page.getByTestId('run-status')).toHaveText('running');
  const box = page.getByRole('form', { name: 'Steer', exact: true });
  await box.getByRole('textbox', { name: 'Steer the agent while it works' }).fill(`RUN_STEER_${s} be brief`);
  await box.getByRole('button', { name: 'Steer' }).click();
  await expect(box.getByRole('status')).toContainText(`Sent to ${worker}`);
  await expect(page.getByText(`was steered by you: “RUN_STEER_${s} be brief”`)).toBeVisible();

  hold.open();
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 20_000 });
  const answered = await api.call<Json>('GET', `/api/runs/${run.runId}`);
  expect(answered.output).toBe(`RUN_STEERED_${s}`);
  await expect(page.getByRole('form', { name: 'Steer' })).toHaveCount(0);
});

test('a running node picked in a run tree is steered from its details: only that run’s agent gets the message', async ({ page, api, model }) => {
  const s = Date.now().toString(36);
  const lead = `steer-lead-${s}`;
  const worker = `steer-node-${s}`;
  const hold = gate();
  model.setScript([
    {
      name: 'lead delegates',
      systemIncludes: `LEAD_${s}`,
      lastIsToolResult: false,
      answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: worker, prompt: 'Do your part.' } }] },
    },
    { name: 'lead wraps up', systemIncludes: `LEAD_${s}`, lastIsToolResult: true, answer: { text: `LEAD_DONE_${s}` } },
    { name: 'held', systemIncludes: `NODE_${s}`, lastIsToolResult: false, times: 1, until: hold.until, answer: GOES_ON },
    { name: 'steered', systemIncludes: `NODE_${s}`, messagesInclude: `NODE_STEER_${s}`, answer: { text: `NODE_STEERED_${s}` } },
    { name: 'not steered', systemIncludes: `NODE_${s}`, answer: { text: `NODE_NOT_STEERED_${s}` } },
  ]);
  await api.createAgent({ id: worker, name: 'Node', system_message: { content: `NODE_${s} You do your part.` } });
  await api.createAgent({ id: lead, name: 'Lead', system_message: { mode: 'append', content: `LEAD_${s} You lead.` } });
  const root = await api.call<Json>('POST', '/api/runs', { agentId: lead, prompt: 'Lead it.', background: true });
  await model.waitForRequests((r) => r.rule === 'held');
  const child = ((await api.call<Json>('GET', `/api/runs?rootRunId=${root.runId}`)).runs as Json[]).find((r) => r.agentId === worker);

  await page.goto(`/runs/${root.runId}`);
  await page.locator(`.run-tree tbody tr[data-run="${child.runId}"]`).getByRole('button', { name: worker }).click();
  const box = page.getByRole('form', { name: `Steer ${worker}` });
  await box.getByRole('textbox', { name: 'Steer the agent while it works' }).fill(`NODE_STEER_${s} be quick`);
  await box.getByRole('button', { name: 'Steer' }).click();
  await expect(box.getByRole('status')).toContainText(`Sent to ${worker}`);

  hold.open();
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 20_000 });
  expect((await api.call<Json>('GET', `/api/runs/${child.runId}`)).output).toBe(`NODE_STEERED_${s}`);
  // The lead that waited for it never got the text.
  expect(model.requests.filter((r) => r.systemText.includes(`LEAD_${s}`) && r.allText.includes(`NODE_STEER_${s}`))).toEqual([]);
});
