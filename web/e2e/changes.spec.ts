import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from '@playwright/test';
import { makeRepository, pairDelegation, writerStep } from '../../test/fixtures/git-repositories';
import { expect, test } from './fixtures';
import type { AgentsApi } from './service';
import { expectNoSeriousA11yViolations, inBothThemes, SCREENSHOT_DIR, setTheme } from './support';

// issue 42's Changes view on the real service, the real Copilot CLI and the scripted model: a lead with a
// workspace on a repository of the test's own delegates two background writers; each works in a worktree
// of its own and `create`s (or `edit`s) a file there, its branch merged into the lead's worktree when it
// completes. The run page shows the writer's file, its diff and its checkpoint, linked to the tool call
// in the timeline; the chat shows the session's worktree with both files and the merges; two writers
// editing the same line leave a conflict, flagged on the run that conflicted and on the chat.

test.use({ workspaces: true });

interface RunRow {
  runId: string;
  status: string;
  ownerThreadId: string;
}

/** The lead and writer agents of this test (`s` keeps its ids and markers its own). */
async function team(api: AgentsApi, s: string): Promise<{ lead: string; writer: string }> {
  const lead = `lead-${s}`;
  const writer = `writer-${s}`;
  await api.createAgent({ id: writer, name: writer, system_message: { mode: 'append', content: `WRITER_${s} you write files.` } });
  await api.createAgent({ id: lead, name: lead, system_message: { mode: 'append', content: `LEAD_${s} you delegate.` } });
  return { lead, writer };
}

/** The lead delegates both tasks of `PAIR <verb> | <task> | <task>` at once, in the background; each writer does its task. */
function script(s: string, writer: string) {
  return [
    {
      name: 'the lead delegates two writers',
      systemIncludes: `LEAD_${s}`,
      lastIsToolResult: false,
      answer: pairDelegation(writer),
    },
    { name: 'the lead waits', systemIncludes: `LEAD_${s}`, lastIsToolResult: true, answer: { text: 'LEAD_STARTED' } },
    { name: 'the writer writes', systemIncludes: `WRITER_${s}`, lastIsToolResult: false, answer: writerStep },
    { name: 'the writer reports', systemIncludes: `WRITER_${s}`, lastIsToolResult: true, answer: { text: 'WRITER_DONE' } },
  ];
}

/** A lead session on `repository`, its message sent; its two runs once both ended (their merges are recorded before). */
async function leadWithTwoRuns(api: AgentsApi, lead: string, repository: string, message: string): Promise<{ sessionId: string; runs: RunRow[] }> {
  const { sessionId } = await api.call<{ sessionId: string }>('POST', '/api/sessions', {
    agentId: lead,
    delegation: true,
    permissionPolicy: { allowKinds: ['write', 'read'] },
    workspace: { repository },
  });
  await api.call('POST', `/api/sessions/${sessionId}/messages`, { prompt: message });
  let runs: RunRow[] = [];
  await expect
    .poll(
      async () => {
        runs = (await api.call<{ runs: RunRow[] }>('GET', '/api/runs?limit=500')).runs.filter((r) => r.ownerThreadId === sessionId);
        return runs.length === 2 ? runs.map((r) => r.status).sort() : runs.length;
      },
      { timeout: 120_000, message: 'both runs ended' },
    )
    .toEqual(['completed', 'completed']);
  return { sessionId, runs };
}

/** The run whose own changes hold `file` (each writer's first checkpoint names the file it wrote). */
async function runThatWrote(api: AgentsApi, runs: readonly RunRow[], file: string): Promise<string> {
  for (const run of runs) {
    const changes = await api.call<{ files: Array<{ path: string }> }>('GET', `/api/runs/${run.runId}/changes`);
    if (changes.files.some((f) => f.path === file)) return run.runId;
  }
  throw new Error(`no run wrote ${file}`);
}

/** The Changes section and its parts. */
function changesOf(page: Page) {
  const section = page.getByTestId('changes');
  return {
    section,
    file: (name: string) => section.getByTestId('changes-file').filter({ hasText: name }),
    merges: section.getByTestId('changes-merge'),
    diff: section.locator('.changes-diff'),
  };
}

test('a writer’s run shows its file, its diff and its checkpoint, and the chat both files merged', async ({ page, api, model, repositories }) => {
  test.setTimeout(240_000);
  const s = Date.now().toString(36);
  const repository = makeRepository(path.join(repositories!, `shop-${s}`));
  const { lead, writer } = await team(api, s);
  model.setScript(script(s, writer));
  const { sessionId, runs } = await leadWithTwoRuns(api, lead, repository, `PAIR WRITE | alpha.txt ALPHA_${s} | beta.txt BETA_${s}`);
  const alpha = await runThatWrote(api, runs, 'alpha.txt');

  // The writer's run: its own file, added with one line, and the line in the diff.
  await page.goto(`/runs/${alpha}`);
  const changes = changesOf(page);
  await expect(changes.section.getByRole('heading', { name: 'Changes' })).toBeVisible();
  await expect(changes.section.getByRole('button', { name: 'This run' })).toHaveAttribute('aria-pressed', 'true');
  await expect(changes.section.getByTestId('changes-file')).toHaveCount(1);
  await expect(changes.file('alpha.txt')).toContainText('added');
  await expect(changes.file('alpha.txt')).toContainText('+1');
  await expect(changes.file('alpha.txt')).toContainText('\u22120');
  await expect(changes.diff.locator('.diff-code-insert', { hasText: `ALPHA_${s}` })).toBeVisible();
  await expect(changes.diff).not.toContainText(`BETA_${s}`);
  // Picking the file asks its diff alone.
  await changes.file('alpha.txt').click();
  await expect(changes.file('alpha.txt')).toHaveAttribute('aria-pressed', 'true');
  await expect(changes.section.getByRole('region', { name: 'Diff of alpha.txt' }).locator('.diff-code-insert')).toHaveText(`ALPHA_${s}`);
  // Who wrote its line, one click away: the writer's create call, in a model call, asked of no one.
  await changes.section.getByRole('button', { name: 'Who wrote each line' }).click();
  const attribution = changes.section.getByTestId('line-attribution');
  await attribution
    .getByTestId('attributed-line')
    .filter({ hasText: `ALPHA_${s}` })
    .click();
  const lineStep = attribution.getByTestId('line-step');
  await expect(lineStep).toContainText(`Agent${writer}`);
  await expect(lineStep).toContainText('create');
  await expect(lineStep).toContainText('no person was asked');
  await expect(lineStep).not.toContainText('not recorded');
  await expect(lineStep.getByRole('button', { name: 'Show in the timeline' })).toBeVisible();
  // Its branch merged into the lead's worktree.
  await expect(changes.merges).toHaveCount(1);
  await expect(changes.merges.first()).toHaveAttribute('data-outcome', 'merged');
  await expect(changes.merges.first()).toContainText('into its lead’s worktree: merged 1 file, +1 \u22120');
  // The checkpoint of its create call, linked to that call in the timeline.
  const checkpoint = changes.section.getByTestId('changes-checkpoint').filter({ hasText: 'create' });
  await expect(checkpoint).toContainText('after a tool call: 1 file, +1 \u22120 (alpha.txt)');
  const toolCallId = (await checkpoint.locator('code').nth(2).textContent())!;
  await checkpoint.getByRole('button', { name: 'Show in the timeline' }).click();
  const step = page.locator('.timeline-step-focused');
  await expect(step).toHaveAttribute('data-tool-call-id', toolCallId);
  await expect(step).toContainText(`${writer} ran create `);
  await expect(step).toBeFocused();
  await expect(step).toBeInViewport();
  // With its sub-runs: its worktree against its base (it started none: the same file).
  await changes.section.getByRole('button', { name: 'With its sub-runs' }).click();
  await expect(changes.section.getByRole('button', { name: 'With its sub-runs' })).toHaveAttribute('aria-pressed', 'true');
  await expect(changes.section.getByText('its worktree against its base, merged runs included')).toBeVisible();
  await expect(changes.section.getByTestId('changes-file')).toHaveCount(1);
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));

  // The chat: the lead's worktree holds both files, each run's merge listed.
  await page.goto(`/sessions/${sessionId}`);
  await expect(changes.section.getByTestId('changes-file')).toHaveCount(2);
  await expect(changes.file('alpha.txt')).toContainText('+1');
  await expect(changes.file('beta.txt')).toContainText('+1');
  await expect(changes.merges).toHaveCount(2);
  for (const merge of await changes.merges.all()) await expect(merge).toHaveAttribute('data-outcome', 'merged');
  await expect(changes.merges.filter({ hasText: writer })).toHaveCount(2);
  await expect(changes.diff.locator('.diff-code-insert', { hasText: `ALPHA_${s}` })).toBeVisible();
  await expect(changes.diff.locator('.diff-code-insert', { hasText: `BETA_${s}` })).toBeVisible();
  await expect(changes.section.getByTestId('changes-conflict')).toHaveCount(0);
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  // For the docs (web/test-results/screenshots; docs/ keeps the light one, copied by hand).
  await changes.section.scrollIntoViewIfNeeded();
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await changes.section.screenshot({ path: path.join(SCREENSHOT_DIR, `console-changes-${theme}.png`), animations: 'disabled', caret: 'hide' });
  }
});

test('two writers editing the same line: the run that conflicted is flagged, on its page and on the chat', async ({ page, api, model, repositories }) => {
  test.setTimeout(240_000);
  const s = Date.now().toString(36);
  const repository = makeRepository(path.join(repositories!, `shop-${s}`));
  const { lead, writer } = await team(api, s);
  model.setScript(script(s, writer));
  const { sessionId, runs } = await leadWithTwoRuns(api, lead, repository, `PAIR EDIT | src/shared.txt line2 FROM_X | src/shared.txt line2 FROM_Y`);
  // Whichever finished first merged; the other found the line changed.
  const outputs = await Promise.all(
    runs.map(async (r) => ({
      runId: r.runId,
      merge: (await api.call<{ workspace?: { merge: string } }>('GET', `/api/runs/${r.runId}/output`)).workspace?.merge,
    })),
  );
  expect(outputs.map((o) => o.merge).sort()).toEqual(['conflicted', 'merged']);
  const conflictedRun = outputs.find((o) => o.merge === 'conflicted')!.runId;

  await page.goto(`/runs/${conflictedRun}`);
  const changes = changesOf(page);
  await expect(changes.file('src/shared.txt')).toContainText('modified');
  const flag = changes.section.getByTestId('changes-conflict');
  await expect(flag).toHaveCount(1);
  await expect(flag).toContainText('Conflict: merging');
  await expect(flag).toContainText('left conflict markers in src/shared.txt');
  await expect(changes.file('src/shared.txt').getByText('conflict', { exact: true })).toBeVisible();
  await expect(changes.merges.first()).toHaveAttribute('data-outcome', 'conflicted');
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));

  // The chat flags the run that conflicted, linked to its page, and the file with the markers.
  await page.goto(`/sessions/${sessionId}`);
  await expect(changes.merges).toHaveCount(2);
  const chatFlag = changes.section.getByTestId('changes-conflict');
  await expect(chatFlag).toHaveCount(1);
  await expect(chatFlag.getByRole('link', { name: writer })).toHaveAttribute('href', `/runs/${conflictedRun}`);
  await expect(changes.file('src/shared.txt').getByText('conflict', { exact: true })).toBeVisible();
  await expect(changes.merges.filter({ hasText: 'conflicts left in src/shared.txt' })).toHaveAttribute('data-outcome', 'conflicted');
  // The lead's worktree holds the markers: the diff shows them.
  await expect(changes.diff.locator('.diff-code-insert', { hasText: '<<<<<<<' })).toBeVisible();
});

test('a session started from the page works in the repository its agent names by default, and its writer’s line is attributed', async ({
  page,
  api,
  model,
  repositories,
}) => {
  test.setTimeout(120_000);
  const s = Date.now().toString(36);
  const repository = makeRepository(path.join(repositories!, `solo-${s}`));
  const writer = `solo-${s}`;
  await api.createAgent({
    id: writer,
    name: writer,
    system_message: { mode: 'append', content: `WRITER_${s} you write files.` },
    permission_policy: { allow_kinds: ['write', 'read'] },
    workspace: { repository },
  });
  model.setScript(script(s, writer));

  await page.goto('/sessions/new');
  await page.getByLabel('Agent', { exact: true }).selectOption(writer);
  // The agent's default is filled in; the operator's repositories are offered.
  const workspace = page.getByRole('group', { name: 'Workspace' });
  await expect(workspace.getByLabel('Repository')).toHaveValue(repository);
  await expect(workspace).toContainText(`Repositories the operator allows: ${repositories}`);
  await page.getByRole('textbox', { name: 'Message' }).fill(`WRITE solo.txt SOLO_${s}`);
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await page.getByRole('button', { name: 'Send' }).click();

  // The chat's Changes: its own branch, the file it wrote, and who wrote its line.
  await expect(page).toHaveURL(/\/sessions\/[0-9a-f-]{36}$/);
  const changes = changesOf(page);
  await expect(changes.file('solo.txt')).toContainText('+1', { timeout: 60_000 });
  await expect(changes.section).toContainText(`in ${repository}`);
  await changes.file('solo.txt').click();
  await changes.section.getByRole('button', { name: 'Who wrote each line' }).click();
  await changes.section
    .getByTestId('attributed-line')
    .filter({ hasText: `SOLO_${s}` })
    .click();
  await expect(changes.section.getByTestId('line-step')).toContainText(`Agent${writer}`);
  await expect(changes.section.getByTestId('line-step')).toContainText('create');
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  // For the docs (web/test-results/screenshots; docs/ keeps the light one, copied by hand).
  await changes.section.scrollIntoViewIfNeeded();
  await changes.section.screenshot({ path: path.join(SCREENSHOT_DIR, 'console-line-attribution-light.png'), animations: 'disabled', caret: 'hide' });
});

test('a schedule made on its page names a repository, and its firing’s run writes in a worktree of it', async ({ page, api, model, repositories }) => {
  test.setTimeout(120_000);
  const s = Date.now().toString(36);
  const repository = makeRepository(path.join(repositories!, `nightly-${s}`));
  const writer = `nightly-${s}`;
  await api.createAgent({
    id: writer,
    name: writer,
    system_message: { mode: 'append', content: `WRITER_${s} you write files.` },
    permission_policy: { allow_kinds: ['write', 'read'] },
  });
  model.setScript(script(s, writer));

  await page.goto(`/schedules/new?agent=${writer}`);
  await page.getByLabel('Prompt', { exact: true }).fill(`WRITE nightly.txt NIGHTLY_${s}`);
  const workspace = page.getByRole('group', { name: 'Workspace' });
  await expect(workspace).toContainText(`Repositories the operator allows: ${repositories}`);
  await workspace.getByLabel('Repository').fill(repository);
  await workspace.getByLabel('Merge finished runs').selectOption('manual');
  // A run of a schedule is owned by no session: it may write only what the schedule allows.
  await page
    .getByRole('group', { name: 'Permissions' })
    .getByRole('combobox', { name: /^write/ })
    .selectOption('allow');
  await inBothThemes(page, () => expectNoSeriousA11yViolations(page));
  await page.getByRole('button', { name: 'Create schedule' }).click();
  await expect(page.getByText(`Workspace: ${repository}, merged when a person merges`)).toBeVisible();
  await expect(page.getByText('Permissions: allowed write')).toBeVisible();

  // Run now: the firing's run works on a branch of its own of that repository.
  await page.getByRole('button', { name: 'Run now' }).click();
  const manual = page.locator('.firing-table tbody tr', { hasText: 'run now' });
  await expect(manual.locator('.badge')).toHaveText('completed', { timeout: 60_000 });
  await manual.getByRole('link', { name: /^Open run of the firing due / }).click();
  const changes = changesOf(page);
  await expect(changes.file('nightly.txt')).toContainText('+1', { timeout: 30_000 });
  await expect(changes.section).toContainText(`in ${repository}`);

  // The editor opens the saved workspace as it was saved.
  await page.getByTestId('scheduled-by').getByRole('link').click();
  await page.getByRole('link', { name: 'Edit', exact: true }).click();
  await expect(page.getByRole('group', { name: 'Workspace' }).getByLabel('Repository')).toHaveValue(repository);
  await expect(page.getByRole('group', { name: 'Workspace' }).getByLabel('Merge finished runs')).toHaveValue('manual');
});

test('a replay’s Changes compare its files with its original’s', async ({ page, api, model, repositories }) => {
  test.setTimeout(120_000);
  const s = Date.now().toString(36);
  const repository = makeRepository(path.join(repositories!, `replayed-${s}`));
  const writer = `replayed-${s}`;
  await api.createAgent({ id: writer, name: writer, system_message: { mode: 'append', content: `WRITER_${s} you write files.` } });
  model.setScript(script(s, writer));
  const original = await api.call<{ runId: string }>('POST', '/api/runs', {
    agentId: writer,
    prompt: `WRITE story.txt ONCE_${s}`,
    background: false,
    workspace: { repository },
  });
  const replay = await api.call<{ runId: string }>('POST', `/api/runs/${original.runId}/replay`, { background: false });
  // The replay did what the original did (its write refused the same way: a root run of the API may not
  // write); then a person adds a file to the replay's worktree.
  const worktree = (await api.call<{ workingDirectory: string }>('GET', `/api/sessions/sub-agent-${replay.runId}`)).workingDirectory;
  fs.writeFileSync(path.join(worktree, 'story.txt'), `TWICE_${s}\n`);

  await page.goto(`/runs/${replay.runId}`);
  const changes = changesOf(page);
  await changes.section.getByRole('button', { name: 'Against the original' }).click();
  await expect(changes.section).toContainText('its files against those of the original run');
  await expect(changes.file('story.txt')).toContainText('+1');
  await expect(changes.diff.locator('.diff-code-insert', { hasText: `TWICE_${s}` })).toBeVisible();
  await changes.section.getByRole('link', { name: 'the original run' }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${original.runId}$`));
});
