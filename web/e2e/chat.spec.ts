import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, inBothThemes, screenshot } from './support';

// Sessions and chat (agent-teams FR-3, FR-5) on the real Copilot CLI, the scripted model as its provider.

const subAgents = (page: Page) => page.getByRole('group', { name: /^Sub-Agents \(/ });
const conversation = (page: Page) => page.getByRole('list', { name: 'Conversation' });

test.beforeEach(async ({ api }) => {
  await api.createAgent({
    id: 'code-reviewer',
    name: 'Code Reviewer',
    icon: '🔍',
    description: 'Reviews code changes',
    system_message: { mode: 'replace', content: 'REVIEWER_PROMPT You review code.' },
  });
  await api.createAgent({
    id: 'doc-writer',
    name: 'Doc Writer',
    icon: '📝',
    description: 'Writes documentation',
    system_message: { content: 'You write docs.' },
  });
  await api.createAgent({
    id: 'engineering-lead',
    name: 'Engineering Lead',
    icon: '🧭',
    description: 'Leads the team',
    system_message: { mode: 'append', content: 'LEAD_RULES delegate reviews.' },
    sub_agents: ['code-reviewer', 'doc-writer'],
  });
});

test('a team lead started from the page delegates to the one sub-agent selected; the other is never offered', async ({ page, model }) => {
  // The worker's first session starts the Copilot CLI, and two pages are checked in both themes: ~55 s on 2 cores.
  test.setTimeout(120_000);
  model.setScript([
    {
      name: 'lead delegates to the reviewer',
      who: 'parent',
      lastIsToolResult: false,
      answer: {
        toolCalls: [
          {
            name: 'task',
            arguments: { agent_type: 'code-reviewer', name: 'review-1', description: 'Review', prompt: 'Review the change.', mode: 'sync' },
          },
        ],
      },
    },
    { name: 'reviewer answers', who: 'child', answer: { text: 'REVIEW_DONE: looks good' } },
    { name: 'lead wraps up', who: 'parent', lastIsToolResult: true, answer: { text: 'LEAD_DONE: the reviewer approved' } },
  ]);

  await page.goto('/sessions');
  await page.getByRole('link', { name: 'New session' }).click();
  await page.getByLabel('Agent', { exact: true }).selectOption('engineering-lead');
  // FR-3: the lead's team pre-selected, the lead itself not offered.
  await expect(subAgents(page).getByRole('checkbox', { checked: true })).toHaveCount(2);
  await expect(subAgents(page).getByRole('checkbox', { name: /Engineering Lead/ })).toHaveCount(0);
  await subAgents(page)
    .getByRole('checkbox', { name: /Doc Writer/ })
    .uncheck();
  await expect(subAgents(page)).toContainText('(1 selected)');
  await page.getByRole('textbox', { name: 'Message' }).fill('Please get the change reviewed.');
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await screenshot(page, 'new-session');

  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page).toHaveURL(/\/sessions\/[0-9a-f-]{36}$/);
  await expect(conversation(page).getByLabel('You')).toHaveText('Please get the change reviewed.');
  const step = conversation(page).locator('.subagent-step');
  await expect(step).toContainText('Code Reviewer');
  await expect(step).toContainText('done');
  await expect(conversation(page).getByLabel('Assistant')).toHaveText('LEAD_DONE: the reviewer approved');
  await expect(page.getByTestId('session-status')).toHaveText('idle');
  // The step's details: what the lead asked and what the reviewer answered.
  await step.locator('summary').first().click();
  await expect(step).toContainText('Review the change.');
  await expect(step).toContainText('REVIEW_DONE: looks good');
  // The session's Sub-Agents: what it runs with.
  await expect(subAgents(page).getByRole('checkbox', { checked: true })).toHaveCount(1);
  await expect(subAgents(page).getByRole('checkbox', { name: /Code Reviewer/ })).toBeChecked();

  // The scripted model's request log: the task tool offered the selected sub-agent, never the other.
  const parentTurns = model.requests.filter((r) => r.who === 'parent');
  expect(model.requests.some((r) => r.who === 'child')).toBe(true);
  const offered = JSON.stringify(parentTurns[0].body.tools);
  expect(offered).toContain('code-reviewer');
  expect(offered).not.toContain('doc-writer');

  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await screenshot(page, 'chat');

  // On an existing session a toggle is saved at once (the service's changeSessionSubAgents).
  await subAgents(page)
    .getByRole('checkbox', { name: /Doc Writer/ })
    .check();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await expect(conversation(page)).toContainText('Sub-agents changed to code-reviewer, doc-writer');
});

test('a sub-agent made ineligible before the first message shows the FR-5 bubble naming it, with a link to its editor', async ({ page, api }) => {
  await page.goto('/sessions/new?agent=engineering-lead');
  await expect(subAgents(page).getByRole('checkbox', { name: /Code Reviewer/ })).toBeChecked();
  // Changed behind the page: the reviewer now has custom tools, so it cannot be a sub-agent.
  await api.updateAgent('code-reviewer', { tools: { custom: ['deploy'], builtin: [], excluded_builtin: [] } });

  await page.getByRole('textbox', { name: 'Message' }).fill('Review please');
  await page.getByRole('button', { name: 'Send' }).click();
  const bubble = page.getByRole('alert').filter({ hasText: 'The session could not start' });
  await expect(bubble).toContainText('Sub-agent code-reviewer');
  await expect(bubble).toContainText('custom tools');
  const fix = bubble.getByRole('link', { name: 'Fix code-reviewer in the agent editor' });
  await expect(fix).toHaveAttribute('href', '/agents/code-reviewer');
  await expect(page).toHaveURL(/\/sessions\/new/);
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));

  await fix.click();
  await expect(page).toHaveURL(/\/agents\/code-reviewer$/);
});

test('a question from the agent is answered in place and the answer reaches it', async ({ page, model }) => {
  model.setScript([
    {
      name: 'lead asks',
      who: 'parent',
      lastIsToolResult: false,
      answer: { toolCalls: [{ name: 'ask_user', arguments: { question: 'Ship the release now?', choices: ['yes', 'not yet'] } }] },
    },
    { name: 'lead acts on the answer', who: 'parent', lastIsToolResult: true, answer: { text: 'SHIPPING as you said' } },
  ]);
  await page.goto('/sessions/new?agent=doc-writer');
  await page.getByRole('textbox', { name: 'Message' }).fill('Release it?');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page).toHaveURL(/\/sessions\/[0-9a-f-]{36}$/);

  const card = page.getByRole('region', { name: /asks: Ship the release now\?/ });
  await expect(card).toBeVisible();
  // Asked once: the card to answer, not a step of the conversation as well.
  await expect(page.getByText('Ship the release now?')).toHaveCount(1);
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await card.getByRole('button', { name: 'not yet' }).click();
  await expect(card).toHaveCount(0);
  await expect(conversation(page).getByLabel('Assistant')).toHaveText('SHIPPING as you said');
  await expect(conversation(page).locator('.question-step')).toContainText('Answered: not yet');
  // The model's next turn carries the answer as the tool's result.
  const last = model.requests.filter((r) => r.who === 'parent').at(-1);
  expect(last?.lastIsToolResult).toBe(true);
  expect(JSON.stringify(last?.lastMessage)).toContain('not yet');
});

test('the Tools and MCP selectors start from the agent’s settings, and the session runs with what is checked', async ({ page, api, model }) => {
  await api.createAgent({
    id: 'shell-free',
    name: 'Shell-free Helper',
    icon: '🧰',
    description: 'Works without fetching the web',
    system_message: { content: 'You help.' },
    tools: { excluded_builtin: ['web_fetch'] },
    mcp_servers: ['github'],
  });
  model.setScript([{ name: 'answer', who: 'parent', answer: { text: 'TOOLS_OK' } }]);

  await page.goto('/sessions/new?agent=shell-free');
  const tools = page.getByRole('group', { name: /^Tools \(/ });
  const mcp = page.getByRole('group', { name: /^MCP servers \(/ });
  // The agent's own settings, checked to start with: every built-in tool but the one it excludes, its MCP server.
  await expect(tools.getByRole('checkbox', { name: 'web_fetch' })).not.toBeChecked();
  await expect(tools.getByRole('checkbox', { name: 'bash', exact: true })).toBeChecked();
  await expect(mcp.getByRole('checkbox', { name: /github/ })).toBeChecked();
  await expect(mcp.getByRole('checkbox', { name: /files/ })).not.toBeChecked();

  await tools.getByRole('checkbox', { name: 'bash', exact: true }).uncheck();
  await mcp.getByRole('checkbox', { name: /github/ }).uncheck();
  await expect(mcp).toContainText('(0 selected)');
  await page.getByRole('textbox', { name: 'Message' }).fill('Which tools do you have?');
  await page.getByRole('button', { name: 'Send' }).click();

  await expect(page).toHaveURL(/\/sessions\/[0-9a-f-]{36}$/);
  await expect(conversation(page).getByLabel('Assistant')).toHaveText('TOOLS_OK');
  await expect(page.getByTestId('session-tools')).toHaveText('Every built-in tool · without bash, web_fetch');
  await expect(page.getByTestId('session-mcp-servers')).toHaveText('None');
  // What the CLI was told shows in what the model is offered.
  const [first] = await model.waitForRequests((r) => JSON.stringify(r.lastMessage).includes('Which tools do you have?'));
  expect(first.toolNames).toContain('view');
  expect(first.toolNames).not.toContain('bash');
  expect(first.toolNames).not.toContain('web_fetch');
});

test('a chat that was idle when the service restarted takes the next message at once: no Resume, no interrupted state', async ({
  page,
  api,
  model,
  service,
}) => {
  // The service is stopped and started again on the same database (its start is most of this test's time).
  test.setTimeout(150_000);
  const s = Date.now().toString(36);
  model.setScript([
    { name: 'before the restart', lastMessageIncludes: `BEFORE_${s}`, answer: { text: `NOTED_${s}` } },
    // Answered only with the conversation from before the restart: the CLI resumed the session.
    { name: 'after the restart', lastMessageIncludes: `AFTER_${s}`, messagesInclude: `NOTED_${s}`, answer: { text: `STILL_HERE_${s}` } },
  ]);
  const { sessionId } = await api.call<{ sessionId: string }>('POST', '/api/sessions', { agentId: 'doc-writer' });
  await page.goto(`/sessions/${sessionId}`);
  await page.getByRole('textbox', { name: 'Message' }).fill(`BEFORE_${s} remember this`);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(conversation(page).getByLabel('Assistant')).toHaveText(`NOTED_${s}`);
  await expect(page.getByTestId('session-status')).toHaveText('idle');

  await service.restart();
  await page.reload();
  await expect(conversation(page).getByLabel('Assistant')).toHaveText(`NOTED_${s}`);
  await expect(page.getByTestId('session-status')).toHaveText('idle');
  await expect(page.getByRole('region', { name: 'Interrupted session' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Resume' })).toHaveCount(0);
  const box = page.getByRole('textbox', { name: 'Message' });
  await expect(box).toBeEnabled();
  await box.fill(`AFTER_${s} what was it?`);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(conversation(page).getByLabel('Assistant').last()).toHaveText(`STILL_HERE_${s}`, { timeout: 30_000 });
  await expect(page.getByTestId('session-status')).toHaveText('idle');
  await expect(page.getByRole('region', { name: 'Interrupted session' })).toHaveCount(0);
});
