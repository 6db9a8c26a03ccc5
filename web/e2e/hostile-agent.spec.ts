import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

// An agent's name, description and prompt are whatever someone typed or imported: markup in them is
// text. Each payload below, if it ever ran, would set window.__hostile and open a dialog; the library,
// the editor (the agent's own and a team lead's, which lists it as a sub-agent) and the new-session page
// show the payloads as text and run none of them.

const NAME = `<img src=x onerror="window.__hostile='name';alert('name')">Sneaky <script>window.__hostile='name-script'</script>`;
const DESCRIPTION = [
  `<script>window.__hostile='description';alert('description')</script>`,
  `[click me](javascript:window.__hostile='description-link')`,
  `<a href="javascript:window.__hostile='description-a'">tap here</a>`,
].join(' ');
const PROMPT = [
  'You are helpful.',
  `<img src=x onerror="window.__hostile='prompt';alert('prompt')">`,
  `<iframe src="javascript:window.__hostile='prompt-iframe'"></iframe>`,
  `[open](javascript:window.__hostile='prompt-link')`,
  `<svg onload="window.__hostile='prompt-svg'"></svg>`,
].join('\n');

/** Nothing the payloads would do happened, and none of their markup became elements of the page. */
async function expectNothingRan(page: Page, dialogs: string[], where: string): Promise<void> {
  expect(dialogs, `${where}: dialogs opened`).toEqual([]);
  expect(await page.evaluate(() => (window as { __hostile?: string }).__hostile), `${where}: window.__hostile`).toBeUndefined();
  const planted = await page.evaluate(() => ({
    scripts: document.querySelectorAll('body script').length,
    images: document.querySelectorAll('img[src="x"]').length,
    frames: document.querySelectorAll('iframe').length,
    javascriptLinks: [...document.querySelectorAll('a[href]')].filter((a) => /^\s*javascript:/i.test(a.getAttribute('href') ?? '')).length,
    handlers: [...document.querySelectorAll('body *')].filter((el) => [...el.attributes].some((attr) => /^on/i.test(attr.name))).length,
  }));
  expect(planted, `${where}: elements made from the agent's text`).toEqual({ scripts: 0, images: 0, frames: 0, javascriptLinks: 0, handlers: 0 });
}

test('markup in an agent’s name, description and prompt is shown as text and never runs', async ({ page, api }) => {
  const s = Date.now().toString(36);
  const hostile = `hostile-${s}`;
  const lead = `hostile-lead-${s}`;
  await api.createAgent({ id: hostile, name: NAME, description: DESCRIPTION, system_message: { mode: 'append', content: PROMPT } });
  await api.createAgent({ id: lead, name: 'Lead', description: 'Leads', sub_agents: [hostile], system_message: { content: 'You lead.' } });
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });

  // The library: the card shows the name and description as the characters they are.
  await page.goto('/agents');
  const card = page.locator('.agent-card').filter({ hasText: hostile });
  await expect(card.getByRole('heading', { level: 2 })).toHaveText(NAME);
  await expect(card).toContainText(`<script>window.__hostile='description';alert('description')</script>`);
  await expect(page.getByRole('article', { name: NAME })).toBeVisible();
  await expectNothingRan(page, dialogs, 'library');

  // The agent's editor: the fields hold the text; its title shows it; a link the text spells is no link.
  await page.goto(`/agents/${hostile}`);
  await expect(page.getByRole('textbox', { name: /^Name/ })).toHaveValue(NAME);
  await expect(page.getByRole('textbox', { name: /^Description/ })).toHaveValue(DESCRIPTION);
  await expect(page.getByRole('textbox', { name: /^System message/ })).toHaveValue(PROMPT);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(NAME);
  for (const text of ['click me', 'tap here', 'open']) await expect(page.getByRole('link', { name: text, exact: true })).toHaveCount(0);
  await expectNothingRan(page, dialogs, 'editor');

  // A lead's editor lists it among the sub-agents by name, as text.
  await page.goto(`/agents/${lead}`);
  await expect(page.getByRole('checkbox', { name: NAME })).toBeChecked();
  await expectNothingRan(page, dialogs, "the lead's editor");

  // The new-session page: the agent in the picker, its description, and as the lead's sub-agent.
  await page.goto('/sessions/new');
  await page.getByLabel('Agent', { exact: true }).selectOption(hostile);
  await expect(page.getByRole('main')).toContainText(`[click me](javascript:window.__hostile='description-link')`);
  await expect(page.getByRole('main')).toContainText(`Starts a session as ${NAME}`);
  await expectNothingRan(page, dialogs, 'new session (the agent)');
  await page.getByLabel('Agent', { exact: true }).selectOption(lead);
  await expect(page.getByRole('checkbox', { name: NAME })).toBeVisible();
  await expectNothingRan(page, dialogs, 'new session (its lead)');
});
