import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, inBothThemes, screenshot } from './support';

// The model-call ledger in the console, on the real service, the real Copilot CLI (its model calls routed
// through Switchboard) and the scripted model; the service prices gpt-4.1 at 2 in and 8 out per million
// tokens (fixtures' E2E_MODEL_PRICES), so each call's cost is known.

type Json = { [key: string]: unknown };

const conversation = (page: Page) => page.getByRole('list', { name: 'Conversation' });
const runRow = (page: Page, runId: string) => page.locator(`.run-tree tbody tr[data-run="${runId}"]`);

test('a chat turn lists its model calls with tokens, cost and latency, a sub-agent step its own, and a call opens on its prompt and answer', async ({
  page,
  api,
  model,
}) => {
  test.setTimeout(120_000);
  const s = Date.now().toString(36);
  const reviewer = `reviewer-${s}`;
  const lead = `lead-${s}`;
  model.setScript([
    {
      name: 'lead delegates to the reviewer',
      who: 'parent',
      lastIsToolResult: false,
      answer: {
        toolCalls: [{ name: 'task', arguments: { agent_type: reviewer, name: 'review-1', description: 'Review', prompt: 'Review it.', mode: 'sync' } }],
      },
      usage: { prompt_tokens: 1000, completion_tokens: 10 },
    },
    { name: 'reviewer answers', who: 'child', answer: { text: `REVIEW_DONE_${s}` }, usage: { prompt_tokens: 2000, completion_tokens: 20 } },
    {
      name: 'lead wraps up',
      who: 'parent',
      lastIsToolResult: true,
      answer: { text: `LEAD_DONE_${s}` },
      usage: { prompt_tokens: 3000, completion_tokens: 30 },
    },
  ]);
  await api.createAgent({ id: reviewer, name: 'Reviewer', description: 'Reviews changes', system_message: { content: 'You review.' } });
  await api.createAgent({
    id: lead,
    name: 'Lead',
    description: 'Leads',
    system_message: { mode: 'append', content: `LEAD_RULES_${s}` },
    sub_agents: [reviewer],
  });
  const { sessionId } = await api.call<Json>('POST', '/api/sessions', { agentId: lead });
  await page.goto(`/sessions/${String(sessionId)}`);
  await page.getByRole('textbox', { name: 'Message' }).fill(`REVIEW_REQUEST_${s} please`);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(conversation(page).getByLabel('Assistant')).toHaveText(`LEAD_DONE_${s}`);

  // The side panel: the session's calls, each with its agent, model, tokens, cost and latency.
  const calls = page.getByRole('list', { name: 'Model calls of the session' });
  const wrapUp = calls.getByRole('article').filter({ hasText: '3,000 in · 30 out' });
  await expect(wrapUp).toContainText(lead);
  await expect(wrapUp).toContainText('gpt-4.1');
  await expect(wrapUp).toContainText('done');
  // 3,000 × 2 + 30 × 8 per million tokens.
  await expect(wrapUp.getByTestId('model-call-cost')).toHaveText('0.00624 USD');
  await expect(wrapUp.getByTestId('model-call-latency')).toHaveText(/^first byte \d+(\.\d)? (ms|s) · \d+(\.\d)? (ms|s) in all/);
  await expect(calls.getByRole('article').filter({ hasText: '1,000 in · 10 out' }).getByTestId('model-call-cost')).toHaveText('0.00208 USD');
  await expect(page.getByTestId('model-call-spend')).toContainText(/model calls · [\d,]+ tokens in, [\d,]+ out · cost /);

  // The reviewer's step lists the calls the reviewer made, and only those.
  const step = conversation(page).locator('.subagent-step');
  await step.locator('summary').first().click();
  const reviewerCalls = step.getByRole('list', { name: `Model calls of ${reviewer}` }).getByRole('article');
  await expect(reviewerCalls.filter({ hasText: '2,000 in · 20 out' })).toHaveCount(1);
  await expect(reviewerCalls.filter({ hasText: '3,000 in' })).toHaveCount(0);

  // Opened, a call shows its prompt as messages and its answer as text, fetched from the ledger then.
  await wrapUp.getByText('Prompt and answer').click();
  const prompt = wrapUp.getByRole('list', { name: 'Prompt messages' });
  await expect(prompt).toContainText(`REVIEW_REQUEST_${s} please`);
  await expect(prompt).toContainText('system');
  await expect(prompt).toContainText(`REVIEW_DONE_${s}`);
  await expect(wrapUp.locator('.model-answer')).toHaveText(`LEAD_DONE_${s}`);
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await wrapUp.scrollIntoViewIfNeeded();
  await screenshot(page, 'model-calls', { fullPage: false });
  await api.call('DELETE', `/api/sessions/${String(sessionId)}`);
});

test('the run tree shows each run’s cost and its subtree’s, and the run page lists the subtree’s model calls', async ({ page, api, model }) => {
  test.setTimeout(120_000);
  const s = Date.now().toString(36);
  const chief = `chief-${s}`;
  const worker = `worker-${s}`;
  model.setScript([
    {
      name: 'the worker answers',
      systemIncludes: `WORKER_${s}`,
      answer: { text: `PART_DONE_${s}` },
      usage: { prompt_tokens: 2000, completion_tokens: 20 },
    },
    {
      name: 'the chief delegates',
      systemIncludes: `CHIEF_${s}`,
      lastIsToolResult: false,
      answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: worker, prompt: `Do PART_${s}.` } }] },
      usage: { prompt_tokens: 1000, completion_tokens: 10 },
    },
    {
      name: 'the chief wraps up',
      systemIncludes: `CHIEF_${s}`,
      lastIsToolResult: true,
      answer: { text: `ALL_DONE_${s}` },
      usage: { prompt_tokens: 3000, completion_tokens: 30 },
    },
  ]);
  await api.createAgent({ id: chief, name: chief, description: 'Chief', system_message: { mode: 'append', content: `CHIEF_${s} you lead.` } });
  await api.createAgent({ id: worker, name: worker, description: 'Worker', system_message: { mode: 'append', content: `WORKER_${s} you work.` } });
  const root = await api.call<{ runId: string }>('POST', '/api/runs', { agentId: chief, prompt: 'Lead the work.', background: true });

  await page.goto(`/runs/${root.runId}`);
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 60_000 });
  const rows = page.locator('.run-tree tbody tr[data-run]');
  await expect(rows).toHaveCount(2);
  const childId = (await rows.filter({ hasText: worker }).getAttribute('data-run')) ?? '';
  // Own / subtree: the worker's one call (2,000 × 2 + 20 × 8 per million); the chief's two calls, then with the worker's.
  await expect(runRow(page, childId).getByTestId('run-cost')).toHaveText('0.00416 / 0.00416');
  await expect(runRow(page, root.runId).getByTestId('run-cost')).toHaveText('0.00832 / 0.0125');

  const calls = page.getByRole('list', { name: 'Model calls of the subtree' }).getByRole('article');
  await expect(calls).toHaveCount(3);
  await expect(calls.filter({ hasText: worker })).toHaveCount(1);
  // Picking a run narrows the list to its own calls.
  await runRow(page, childId).getByRole('button', { name: worker }).click();
  await expect(page.getByRole('list', { name: `Model calls of ${worker}` }).getByRole('article')).toHaveCount(1);
  await expect(page.getByRole('complementary', { name: worker })).toContainText('1 model call · 2,000 tokens in, 20 out · cost 0.00416 USD');
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
});
