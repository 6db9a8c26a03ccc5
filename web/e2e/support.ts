import axe from 'axe-core';
import { expect, type Page } from '@playwright/test';
import * as path from 'node:path';
import type { Rule } from '../../test/fixtures/scripted-model-server';

export type Theme = 'light' | 'dark';

/** Where screenshot() writes: web/test-results/screenshots/<name>-<theme>.png (docs/ keeps a few, committed by hand). */
export const SCREENSHOT_DIR = path.join(__dirname, '..', 'test-results', 'screenshots');

/**
 * axe-core on the page as it is now (WCAG 2.x A/AA and best-practice rules, axe's defaults): fails listing
 * every serious or critical violation with its rule id, what it means and the elements it found.
 *
 * axe-core itself, not @axe-core/playwright's builder: the builder injects axe again on every call and
 * brings back every passed and inapplicable node, 1.2 to 6 s a check here; injected once per page and
 * asked for violations only, the same rules take 0.15 to 0.3 s (the console tier runs about 70 checks).
 */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const injected = await page.evaluate(() => 'axe' in window);
  if (!injected) await page.evaluate(axe.source);
  const results = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }));
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    at ${n.target.map(String).join(' ')}: ${n.failureSummary?.split('\n').join(' ') ?? ''}`).join('\n')}`,
  );
  expect(report, `serious or critical accessibility violations on ${page.url()}:\n${report.join('\n')}`).toEqual([]);
}

export async function currentTheme(page: Page): Promise<Theme> {
  await expect(page.locator('html')).toHaveAttribute('data-theme', /^(light|dark)$/);
  return (await page.locator('html').getAttribute('data-theme')) as Theme;
}

/**
 * Switches the console to `theme` the way a user does, with the top bar's theme button; while a modal
 * dialog makes the page behind it inert (the token prompt), by setting what the button sets, data-theme.
 */
export async function setTheme(page: Page, theme: Theme): Promise<void> {
  if ((await currentTheme(page)) === theme) return;
  const modalOpen = await page.evaluate(() => document.querySelector('dialog[open]') !== null);
  if (modalOpen) {
    await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
  } else {
    await page.getByRole('button', { name: `Switch to ${theme} theme` }).click();
    // The click leaves focus (and its ring) on the button: screenshots show the page as a reader sees it.
    await page.getByRole('button', { name: /^Switch to (light|dark) theme$/ }).blur();
  }
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
}

/** Runs `check` in the page's current theme, then in the other, and leaves the page in the theme it had. */
export async function inBothThemes(page: Page, check: (theme: Theme) => Promise<void>): Promise<void> {
  const first = await currentTheme(page);
  const second: Theme = first === 'light' ? 'dark' : 'light';
  await check(first);
  await setTheme(page, second);
  try {
    await check(second);
  } finally {
    await setTheme(page, first);
  }
}

/**
 * Saves web/test-results/screenshots/<name>-light.png and <name>-dark.png, scrolled to the top (a sticky
 * top bar would otherwise show mid-image): the whole page, or only the viewport for a page that runs long.
 */
export async function screenshot(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await inBothThemes(page, async (theme) => {
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${theme}.png`), fullPage, animations: 'disabled', caret: 'hide' });
  });
}

/**
 * The approvals scenario the inbox specs share: the main agent delegates to an `operator` sub-agent whose
 * shell command (`command`) waits for a person under the session's `askKinds: ['shell']`, then both wrap up.
 */
export function askedShellCommandScript(command: string, description: string): Rule[] {
  return [
    {
      name: 'parent delegates',
      who: 'parent',
      lastIsToolResult: false,
      answer: {
        toolCalls: [
          { name: 'task', arguments: { agent_type: 'operator', name: 'op-1', description: 'Run it', prompt: 'Run the command.', mode: 'sync' } },
        ],
      },
    },
    {
      name: 'child runs a command',
      who: 'child',
      lastIsToolResult: false,
      answer: { toolCalls: [{ name: 'bash', arguments: { command, description } }] },
    },
    { name: 'child reports', who: 'child', lastIsToolResult: true, answer: { text: 'CHILD_DONE' } },
    { name: 'parent wraps up', who: 'parent', lastIsToolResult: true, answer: { text: 'PARENT_DONE' } },
  ];
}

/** The session that scenario runs in: an `operator` sub-agent, and a policy that asks a person for shell. */
export const ASKED_SHELL_SESSION = {
  customAgents: [{ name: 'operator', displayName: 'Operator', description: 'Runs shell commands', prompt: 'You run shell commands.', infer: true }],
  permissionPolicy: { askKinds: ['shell'] },
};
