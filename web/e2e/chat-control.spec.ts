import type { Page } from '@playwright/test';
import { ApiCallError, expect, test } from './fixtures';
import { expectNoSeriousA11yViolations } from './support';

// The chat's own controls on the real service and the real Copilot CLI (the scripted model as its
// provider): an interrupted session is resumed from its chat, and a running turn is stopped from it.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const conversation = (page: Page) => page.getByRole('list', { name: 'Conversation' });
const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Message' });

test.beforeEach(async ({ api }) => {
  await api.createAgent({ id: 'doc-writer', name: 'Doc Writer', description: 'Writes documentation', system_message: { content: 'You write docs.' } });
});

test('after a restart the chat offers Resume, the box takes no typing until then, and the next message works', async ({ page, api, model }) => {
  // The Copilot CLI is killed and started again (about half of this test's time on a busy 2-core machine).
  test.setTimeout(120_000);
  const s = Date.now().toString(36);
  model.setScript([{ name: 'answer after the resume', lastMessageIncludes: `AFTER_RESUME_${s}`, answer: { text: `RESUMED_OK_${s}` } }]);
  const { sessionId } = await api.call<Json>('POST', '/api/sessions', { agentId: 'doc-writer' });
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`/sessions/${sessionId}`);
  await expect(page.getByTestId('session-status')).toHaveText('active');
  await expect(messageBox(page)).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Resume' })).toHaveCount(0);

  // The CLI dies (what a restart does to every live session): the chat follows without a reload.
  const health = await api.call<Json>('GET', '/health');
  process.kill(health.copilotCli.pid, 'SIGKILL');
  await expect(page.getByTestId('session-status')).toHaveText('interrupted', { timeout: 20_000 });
  await expect(messageBox(page)).toBeDisabled();
  await expect(page.locator('#chat-prompt-hint')).toHaveText('The session was interrupted: Resume it above, then write.');
  const resume = page.getByRole('region', { name: 'Interrupted session' }).getByRole('button', { name: 'Resume' });
  await expect(resume).toBeInViewport();
  const box = await resume.boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(360);
  await expectNoSeriousA11yViolations(page);

  // The restarted CLI takes the resume (it may still be starting: the service waits for it).
  await resume.click();
  await expect(page.getByTestId('session-status')).toHaveText(/^(idle|active)$/, { timeout: 30_000 });
  await expect(page.getByRole('region', { name: 'Interrupted session' })).toHaveCount(0);
  await expect(conversation(page)).toContainText('Session resumed.');
  await messageBox(page).fill(`AFTER_RESUME_${s} anything new?`);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(conversation(page).getByLabel('Assistant')).toHaveText(`RESUMED_OK_${s}`);
  await expect(page.getByTestId('session-status')).toHaveText('idle');
  await api.call('DELETE', `/api/sessions/${sessionId}`);
});

test('a running turn is stopped from the chat: Stop asks the CLI to abort, the session turns idle and takes the next message', async ({
  page,
  api,
  model,
}) => {
  const s = Date.now().toString(36);
  model.setScript([
    { name: 'a turn that never ends', lastMessageIncludes: `HANG_${s}`, answer: { hang: true } },
    { name: 'the next message', lastMessageIncludes: `NEXT_${s}`, answer: { text: `NEXT_OK_${s}` } },
  ]);
  const { sessionId } = await api.call<Json>('POST', '/api/sessions', { agentId: 'doc-writer' });
  await page.goto(`/sessions/${sessionId}`);
  await messageBox(page).fill(`HANG_${s} take your time`);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('session-status')).toHaveText('running');
  await model.waitForRequests((r) => JSON.stringify(r.lastMessage).includes(`HANG_${s}`));
  // While it runs the next message can be written, not sent.
  await messageBox(page).fill(`NEXT_${s} then this`);
  await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();

  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(conversation(page)).toContainText('Stop requested');
  await expect(page.getByTestId('session-status')).toHaveText('idle', { timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Send' }).click();
  await expect(conversation(page).getByLabel('Assistant').last()).toHaveText(`NEXT_OK_${s}`);

  // Nothing runs now: a second stop is refused with the reason, not a 500.
  const refused = await api.call('POST', `/api/sessions/${sessionId}/abort`).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(ApiCallError);
  expect((refused as ApiCallError).status).toBe(409);
  expect(JSON.stringify((refused as ApiCallError).body)).toContain('there is no running turn to stop');
  await api.call('DELETE', `/api/sessions/${sessionId}`);
});

test('a delegation shows as a run card linked to its run; the automatic approval of agent_run shows only when asked', async ({ page, api, model }) => {
  const s = Date.now().toString(36);
  const worker = `worker-${s}`;
  model.setScript([
    { name: 'the run answers', systemIncludes: `WORKER_${s}`, answer: { text: `RUN_DONE_${s}` }, usage: { prompt_tokens: 1000, completion_tokens: 234 } },
    {
      name: 'the lead delegates',
      messagesInclude: `DELEGATE_${s}`,
      lastIsToolResult: false,
      answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: worker, prompt: `Summarize **PART_${s}**.` } }] },
    },
    { name: 'the lead wraps up', messagesInclude: `DELEGATE_${s}`, lastIsToolResult: true, answer: { text: `LEAD_DONE_${s}` } },
  ]);
  await api.createAgent({ id: worker, name: 'Worker', system_message: { content: `WORKER_${s} You summarize.` } });
  const { sessionId } = await api.call<Json>('POST', '/api/sessions', { delegation: true, budget: { maxRuns: 5 } });
  await page.goto(`/sessions/${sessionId}`);
  await expect(page.getByTestId('session-delegation')).toContainText('On');
  await messageBox(page).fill(`DELEGATE_${s} please`);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(conversation(page).getByLabel('Assistant')).toHaveText(`LEAD_DONE_${s}`);

  const card = conversation(page).getByRole('article', { name: `Run of ${worker}` });
  await expect(card.getByTestId('run-card-status')).toHaveText('done');
  await expect(card).toContainText(`Summarize **PART_${s}**.`);
  await expect(card).toContainText(/\d+(\.\d)? (ms|s)/);
  await expect(card).toContainText(/[\d,]+ tokens/);
  // No generic agent_run step, and the policy's approval of its own tool stays out of the way until asked.
  await expect(conversation(page).locator('.tool-step')).toHaveCount(0);
  await expect(conversation(page).locator('.permission-step')).toHaveCount(0);
  await page.getByRole('checkbox', { name: /Show automatic approvals/ }).check();
  await expect(conversation(page).locator('.permission-step')).toContainText('automatic');
  await expect(page.getByTestId('session-budget')).toContainText('runs: 1 of 5');

  await card.getByRole('link').click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('run-status')).toHaveText('completed');
  await api.call('DELETE', `/api/sessions/${sessionId}`);
});

test('Stop in the chat stops the foreground run the turn waits on, linked from its start; a background run goes on, linked', async ({
  page,
  api,
  model,
}) => {
  const s = Date.now().toString(36);
  const [worker, helper] = [`fg-worker-${s}`, `bg-helper-${s}`];
  model.setScript([
    {
      name: 'the lead delegates twice',
      messagesInclude: `WAIT_ON_${s}`,
      lastIsToolResult: false,
      answer: {
        toolCalls: [
          { name: 'agent_run', arguments: { agent_id: helper, prompt: `Watch BG_${s}.`, background: true } },
          { name: 'agent_run', arguments: { agent_id: worker, prompt: `Work on FG_${s}.` } },
        ],
      },
    },
    { name: 'the lead wraps up', messagesInclude: `WAIT_ON_${s}`, lastIsToolResult: true, answer: { text: `LEAD_DONE_${s}` } },
    { name: 'the runs take their time', systemIncludes: `HANGS_${s}`, answer: { hang: true } },
  ]);
  for (const id of [worker, helper]) await api.createAgent({ id, name: id, system_message: { content: `HANGS_${s} You work slowly.` } });
  const { sessionId } = await api.call<Json>('POST', '/api/sessions', { delegation: true });
  await page.goto(`/sessions/${sessionId}`);
  await messageBox(page).fill(`WAIT_ON_${s} please`);
  await page.getByRole('button', { name: 'Send' }).click();
  await model.waitForRequests((r) => r.rule === 'the runs take their time', 2);

  // While the lead waits, the foreground run's card already links to its run page.
  const card = conversation(page).getByRole('article', { name: `Run of ${worker}` });
  await expect(card.getByTestId('run-card-status')).toHaveText('running');
  const link = card.getByRole('link', { name: `Run: ${worker}` });
  await expect(link).toHaveAttribute('href', /\/runs\/[0-9a-f-]{36}$/);
  const runId = (await link.getAttribute('href'))!.split('/').pop()!;
  const helperRun = ((await api.call<Json>('GET', '/api/runs')).runs as Json[]).find((r) => r.agentId === helper);

  await page.getByRole('button', { name: 'Stop' }).click();
  const notice = conversation(page).getByText('Stop requested: the agent stops its turn. The runs it waits on stop with it.');
  await expect(notice).toContainText('Background runs go on:');
  await expect(notice.getByRole('link', { name: new RegExp(helper) })).toHaveAttribute('href', `/runs/${helperRun.runId}`);
  await expect(card.getByTestId('run-card-status')).toHaveText('stopped', { timeout: 20_000 });
  await expect(card).toContainText('the turn that started it was stopped');
  await expect(page.getByTestId('session-status')).toHaveText('idle', { timeout: 20_000 });
  expect((await api.call<Json>('GET', `/api/runs/${runId}`)).status).toBe('stopped');
  expect((await api.call<Json>('GET', `/api/runs/${helperRun.runId}`)).status).toBe('running');

  await link.click();
  await expect(page.getByTestId('run-status')).toHaveText('stopped');
  await api.call('POST', `/api/runs/${helperRun.runId}/stop`, {});
  await api.call('DELETE', `/api/sessions/${sessionId}`);
});
