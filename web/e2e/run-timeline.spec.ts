import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, inBothThemes } from './support';

// The run page's timeline for a two-level delegation started from a chat, on the real service, the real
// Copilot CLI and the scripted model: the session's agent hands a task to a manager (agent_run), the
// manager hands part of it to a worker, the worker reads a file and answers. The page reads it as steps in
// words, grouped by agent, narrowed by the run picked in the tree, filtered, searched, with each step's raw
// events one click away and a link back to the chat that started it.

interface RunSummary {
  runId: string;
  status: string;
}

test('a two-level run reads as a timeline of steps, narrowed, filtered and searched, and links back to its chat', async ({ page, api, model }) => {
  test.setTimeout(180_000);
  const s = Date.now().toString(36);
  const manager = `manager-${s}`;
  const worker = `worker-${s}`;
  model.setScript([
    {
      name: 'the manager hands the reading to the worker',
      systemIncludes: `MANAGER_${s}`,
      lastIsToolResult: false,
      answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: worker, prompt: 'Read the readme and say what it is.' } }] },
    },
    { name: 'the manager reports', systemIncludes: `MANAGER_${s}`, lastIsToolResult: true, answer: { text: `MANAGER_REPORT_${s}: the worker read it.` } },
    {
      name: 'the worker reads a file',
      systemIncludes: `WORKER_${s}`,
      lastIsToolResult: false,
      answer: { toolCalls: [{ name: 'view', arguments: { path: `README_${s}.md` } }] },
    },
    { name: 'the worker answers', systemIncludes: `WORKER_${s}`, lastIsToolResult: true, answer: { text: `**WORKER_ANSWER_${s}**: a readme.` } },
    {
      name: 'the chat delegates to the manager',
      messagesInclude: `SCENARIO_${s}`,
      lastIsToolResult: false,
      answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: manager, prompt: 'Manage the reading.' } }] },
    },
    { name: 'the chat wraps up', messagesInclude: `SCENARIO_${s}`, lastIsToolResult: true, answer: { text: 'LEAD_DONE' } },
  ]);
  await api.createAgent({ id: manager, name: manager, system_message: { mode: 'append', content: `MANAGER_${s} You manage.` } });
  await api.createAgent({ id: worker, name: worker, system_message: { mode: 'append', content: `WORKER_${s} You read files.` } });
  const { sessionId } = await api.call<{ sessionId: string }>('POST', '/api/sessions', { delegation: true });
  await api.call('POST', `/api/sessions/${sessionId}/messages`, { prompt: `SCENARIO_${s} have the manager do it` });

  const runOf = async (agentId: string) => {
    let run: RunSummary | undefined;
    await expect
      .poll(
        async () => {
          run = (await api.call<{ runs: RunSummary[] }>('GET', `/api/runs?agentId=${agentId}`)).runs[0];
          return run?.status;
        },
        { timeout: 90_000 },
      )
      .toBe('completed');
    return run!;
  };
  const lead = await runOf(manager);
  const child = await runOf(worker);

  await page.goto(`/runs/${lead.runId}`);
  // The title is the agent and its task; the run id is a fact below it.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${manager}: Manage the reading.`);
  await expect(page.getByTestId('run-status')).toHaveText('completed');
  await expect(page).toHaveTitle(`${manager}: Manage the reading. · Switchboard`);
  await expect(page.getByText('Its caller waited for it')).toBeVisible();

  // One line per step, in words, under the agent doing them; no event types, no stream ids.
  const timeline = page.getByRole('list', { name: /^Steps of the run/ });
  const step = (text: string | RegExp) => timeline.locator('.timeline-step', { hasText: text });
  await expect(step(`${manager} started on the task: “Manage the reading.”`)).toBeVisible();
  await expect(step(new RegExp(`${manager} ran agent_run ${worker}, [\\d.]+ (ms|s)`))).toBeVisible();
  await expect(step(`${worker} was given a task by ${manager} (and waited for it): “Read the readme and say what it is.”`)).toBeVisible();
  await expect(step(new RegExp(`${worker} ran view README_${s}\\.md, [\\d.]+ (ms|s)`))).toBeVisible();
  await expect(step(`${worker} answered: WORKER_ANSWER_${s}: a readme.`)).toBeVisible();
  await expect(step(`${manager} answered: MANAGER_REPORT_${s}: the worker read it.`)).toBeVisible();
  await expect(timeline.locator('.timeline-agent', { hasText: worker }).first()).toBeVisible();
  await expect(timeline).not.toContainText('cli.');
  await expect(timeline).not.toContainText('session-sub-agent-');

  // The run's answer is markdown, rendered.
  const answer = page.locator('.run-summary').getByRole('heading', { name: 'Answer' }).locator('..');
  await expect(answer).toContainText(`MANAGER_REPORT_${s}: the worker read it.`);

  // Picking the worker in the tree narrows the timeline to its run.
  await page.locator(`.run-tree tbody tr[data-run="${child.runId}"]`).getByRole('button', { name: worker }).click();
  await expect(page.getByText(`Only the run of ${worker}`)).toBeVisible();
  await expect(step(`${manager} started on the task`)).toHaveCount(0);
  await expect(step(`${worker} answered`)).toBeVisible();
  await page.getByRole('button', { name: 'Show every run' }).click();
  await expect(step(`${manager} started on the task`)).toBeVisible();

  // A filter by kind of step: the answers only.
  await page.getByLabel('Show', { exact: true }).selectOption('message');
  await expect(step(/ answered: /)).toHaveCount(2);
  await expect(step(/ ran /)).toHaveCount(0);
  // The CLI's bookkeeping is there when asked for, in words too.
  await page.getByLabel('Show', { exact: true }).selectOption('internal');
  await expect(step(/began a turn/).first()).toBeVisible();
  await page.getByLabel('Show', { exact: true }).selectOption('');

  // The search: the worker's file, then nothing.
  const search = page.getByRole('searchbox', { name: 'Search the timeline' });
  await search.fill(`view readme_${s}`);
  await expect(timeline.locator('.timeline-step')).toHaveCount(1);
  const read = step(`ran view README_${s}.md`);
  await expect(read).toBeVisible();
  // The raw events are one click away: the CLI's start and end of the call.
  await read.getByRole('button', { name: 'Raw events of this step' }).click();
  await expect(read.locator('pre')).toContainText('"type": "cli.tool.execution_start"');
  await expect(read.locator('pre')).toContainText(`"path": "README_${s}.md"`);
  await search.fill(`nothing-like-this-${s}`);
  await expect(page.getByText('No step matches.')).toBeVisible();
  await search.fill('');

  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));

  // At 360 px the timeline and its controls fit the screen.
  await page.setViewportSize({ width: 360, height: 800 });
  await expect(step(`${worker} answered`)).toBeVisible();
  const fits = await page
    .locator('.run-timeline')
    .evaluate((el) => ({ right: el.getBoundingClientRect().right, scroll: el.scrollWidth, client: el.clientWidth }));
  expect(fits.right).toBeLessThanOrEqual(360);
  expect(fits.scroll).toBeLessThanOrEqual(fits.client);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The worker's page links to the chat its tree came from, through the run above it.
  await page.goto(`/runs/${child.runId}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${worker}: Read the readme and say what it is.`);
  // Its answer is markdown, rendered: the bold is bold, not asterisks.
  await expect(page.locator('.run-summary strong', { hasText: `WORKER_ANSWER_${s}` })).toBeVisible();
  await page.getByRole('link', { name: 'Open the chat that started this team' }).click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${sessionId}$`));

  // And the manager's page links to it directly.
  await page.goto(`/runs/${lead.runId}`);
  await page.getByRole('link', { name: 'Open the chat that started it' }).click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${sessionId}$`));
  await api.call('DELETE', `/api/sessions/${sessionId}`);
});
