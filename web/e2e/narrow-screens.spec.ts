import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations, screenshot } from './support';

// Every page of the console on a phone (390 px, and 360 px, the narrowest we support), in the real
// service with the real Copilot CLI and the scripted model: the document never scrolls sideways (wide
// tables and code scroll in their own box), the page's title and main actions are on screen, and the
// main menu opens from a button that keyboard and screen-reader users can work. Pages are picked by
// route and checked with generic rules, so a page's redesign keeps this test meaningful.

const WIDTHS = [390, 360];
// One unbroken token longer than any phone: it must wrap or scroll in its box, never widen the page.
const LONG = `UNBROKEN_${'x'.repeat(160)}`;

interface RunSummary {
  runId: string;
  status: string;
}

/** A page of the console: where it lives and what a person must be able to reach on it. */
interface ConsolePage {
  name: string;
  path: string;
  /** What proves the page's own content arrived (not only its loading state). */
  ready: (page: Page) => Locator;
  /** What a person does first on the page, so its fuller state is the one checked. */
  prepare?: (page: Page) => Promise<void>;
  actions: (page: Page) => Locator[];
}

/**
 * Everything a person can operate (links, buttons, fields) that the page shows but cuts off at the
 * viewport's left or right edge. A control inside a box that scrolls sideways on its own (a wide
 * table) is reachable by scrolling that box, so it does not count.
 */
async function controlsCutOff(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const scrollsSideways = (el: Element | null): boolean => {
      for (let at = el?.parentElement; at && at !== document.documentElement; at = at.parentElement) {
        const overflow = getComputedStyle(at).overflowX;
        if ((overflow === 'auto' || overflow === 'scroll') && at.scrollWidth > at.clientWidth) return true;
      }
      return false;
    };
    const out: string[] = [];
    for (const el of document.querySelectorAll('a[href], button, input, select, textarea, summary, h1')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      // Wholly left of the screen on purpose (the skip link until it has focus).
      if (box.right <= 0) continue;
      if (box.left >= -0.5 && box.right <= window.innerWidth + 0.5) continue;
      if (scrollsSideways(el)) continue;
      const label = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40);
      out.push(`<${el.tagName.toLowerCase()}> "${label}" spans ${Math.round(box.left)}..${Math.round(box.right)} px`);
    }
    return out;
  });
}

/**
 * What widens the document: the outermost elements that end past the window's right edge and are not
 * clipped by a box that scrolls or hides its overflow (an absolutely placed one may escape that box).
 */
async function widestElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const visit = (el: Element, clipped: boolean) => {
      const style = getComputedStyle(el);
      const escapes = style.position === 'absolute' || style.position === 'fixed';
      const box = el.getBoundingClientRect();
      if (box.right > window.innerWidth + 0.5 && box.width > 0 && (!clipped || escapes)) {
        const classes = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
        out.push(
          `<${el.tagName.toLowerCase()}${classes}> "${(el.textContent ?? '').trim().slice(0, 30)}" ${Math.round(box.width)} px wide, ends at ${Math.round(box.right)} px`,
        );
        return;
      }
      for (const child of el.children) visit(child, (clipped && !escapes) || style.overflowX !== 'visible');
    };
    visit(document.body, false);
    return out.slice(0, 8);
  });
}

async function expectOnScreen(page: Page, target: Locator, where: string): Promise<void> {
  await expect(target, `${where}: ${target.toString()} visible`).toBeVisible();
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  const width = page.viewportSize()!.width;
  expect(box, `${where}: ${target.toString()} has a box`).not.toBeNull();
  expect(box!.x, `${where}: ${target.toString()} starts on screen`).toBeGreaterThanOrEqual(-0.5);
  expect(box!.x + box!.width, `${where}: ${target.toString()} ends on screen`).toBeLessThanOrEqual(width + 0.5);
}

/**
 * Text that only an emoji font draws (a stock Debian Chromium has none, and shows empty boxes): the
 * console's own icons are SVGs. The agents here have no icon of their own (an emoji a user picks is
 * their data and may stay).
 */
async function emojiOnPage(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const emoji = /[\p{Extended_Pictographic}\u2600-\u27BF\u2B00-\u2BFF]|\uFE0F/u;
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (emoji.test(node.textContent ?? '')) out.push(`${node.parentElement?.tagName.toLowerCase()}: "${(node.textContent ?? '').trim().slice(0, 40)}"`);
    }
    return out;
  });
}

/** Every SVG icon is either hidden from screen readers (it sits beside its text) or named. */
async function unnamedIcons(page: Page): Promise<number> {
  return page.locator('svg.icon:not([aria-hidden="true"]):not([aria-label])').count();
}

const menuButton = (page: Page) => page.getByRole('button', { name: /^Menu\b/ });
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const themeToggle = (page: Page) => page.getByRole('button', { name: /^Switch to (light|dark) theme$/ });

test('every page fits a 390 px and a 360 px wide screen, with its main actions and the menu on screen', async ({ page, api, model }) => {
  test.setTimeout(240_000);
  const s = Date.now().toString(36);
  const lead = `narrow-lead-${s}`;
  const helper = `narrow-helper-${s}`;
  const fence = '```';
  model.setScript([
    {
      name: 'the chat answers with a wide code block and a long word',
      lastMessageIncludes: `CHAT_${s}`,
      lastIsToolResult: false,
      answer: {
        text: `**Summary:** done.\n\n${fence}sh\necho ${'wide '.repeat(40)}\n${fence}\n\n${LONG}\n\n| a | b | c |\n|---|---|---|\n| ${LONG} | 2 | 3 |`,
      },
    },
    {
      name: 'the chat asks to run a command (it waits in Approvals)',
      lastMessageIncludes: `APPROVE_${s}`,
      lastIsToolResult: false,
      answer: { toolCalls: [{ name: 'bash', arguments: { command: `echo ${LONG}`, description: 'print a long word' } }] },
    },
    { name: 'the run reports', messagesInclude: `RUN_${s}`, answer: { text: `Report:\n\n${fence}\n${'column '.repeat(40)}\n${fence}\n\n${LONG}` } },
  ]);
  await api.createAgent({
    id: helper,
    name: 'Helper With A Rather Long Display Name For A Phone',
    description: `Does the legwork. ${LONG}`,
    system_message: { mode: 'append', content: `You help. ${LONG}` },
  });
  await api.createAgent({
    id: lead,
    name: 'Lead',
    description: 'Leads the narrow team',
    sub_agents: [helper],
    system_message: { mode: 'append', content: 'You lead.' },
  });
  const { sessionId } = await api.call<{ sessionId: string }>('POST', '/api/sessions', { agentId: lead, permissionPolicy: { askKinds: ['shell'] } });
  await api.call('POST', `/api/sessions/${sessionId}/messages`, { prompt: `CHAT_${s} ${LONG}` });
  const run = await api.call<RunSummary>('POST', '/api/runs', { agentId: helper, prompt: `RUN_${s} ${LONG}`, background: true });
  await expect.poll(async () => (await api.call<RunSummary>('GET', `/api/runs/${run.runId}`)).status, { timeout: 60_000 }).toBe('completed');
  await expect.poll(async () => (await api.call<{ status: string }>('GET', `/api/sessions/${sessionId}`)).status, { timeout: 60_000 }).toBe('idle');
  await api.call('POST', `/api/sessions/${sessionId}/messages`, { prompt: `APPROVE_${s}` });
  // Yearly, so it never fires while the test runs; a long name and a long zone name to wrap.
  const schedule = await api.call<{ id: string }>('POST', '/api/schedules', {
    name: `Nightly ${LONG}`.slice(0, 120),
    agentId: helper,
    prompt: `SCHEDULED_${s} ${LONG}`,
    cron: '0 3 1 1 *',
    timeZone: 'America/Argentina/ComodRivadavia',
  });

  const pages: ConsolePage[] = [
    {
      name: 'library',
      path: '/agents',
      ready: (p) => p.getByRole('link', { name: 'Lead', exact: true }),
      actions: (p) => [p.getByRole('link', { name: 'New agent' }).first()],
    },
    {
      name: 'editor',
      path: `/agents/${helper}`,
      ready: (p) => p.getByRole('textbox', { name: /^Name/ }),
      actions: (p) => [p.getByRole('button', { name: 'Save' }), p.getByRole('textbox', { name: /^Name/ })],
    },
    {
      name: 'new agent',
      path: '/agents/new',
      ready: (p) => p.getByRole('textbox', { name: /^Name/ }),
      actions: (p) => [p.getByRole('button', { name: 'Create agent' })],
    },
    {
      name: 'new session',
      path: '/sessions/new',
      ready: (p) => p.getByRole('textbox', { name: 'Message' }),
      prepare: (p) =>
        p
          .getByLabel('Agent', { exact: true })
          .selectOption(lead)
          .then(() => undefined),
      actions: (p) => [p.getByLabel('Agent', { exact: true }), p.getByRole('textbox', { name: 'Message' }), p.getByRole('button', { name: 'Send' })],
    },
    {
      name: 'sessions',
      path: '/sessions',
      ready: (p) => p.getByRole('link', { name: 'New session' }),
      actions: (p) => [p.getByRole('link', { name: 'New session' })],
    },
    {
      name: 'chat',
      path: `/sessions/${sessionId}`,
      ready: (p) => p.getByText('Summary:').first(),
      actions: (p) => [p.getByRole('textbox', { name: 'Message' }), p.getByRole('button', { name: 'Send' })],
    },
    {
      name: 'schedules',
      path: '/schedules',
      ready: (p) => p.getByRole('link', { name: /^Nightly UNBROKEN/ }),
      actions: (p) => [p.getByRole('link', { name: 'New schedule' })],
    },
    {
      name: 'schedule page',
      path: `/schedules/${schedule.id}`,
      ready: (p) => p.getByRole('list', { name: 'Next firings' }),
      actions: (p) => [p.getByRole('button', { name: 'Run now' }), p.getByRole('button', { name: 'Delete' })],
    },
    {
      name: 'new schedule',
      path: `/schedules/new?agent=${helper}`,
      ready: (p) => p.getByRole('list', { name: 'Next firings' }),
      actions: (p) => [p.getByLabel('Cron expression'), p.getByRole('button', { name: 'Create schedule' })],
    },
    { name: 'runs', path: '/runs', ready: (p) => p.locator(`main a[href$="/runs/${run.runId}"]`).first(), actions: () => [] },
    { name: 'run page', path: `/runs/${run.runId}`, ready: (p) => p.getByText('Report:').first(), actions: () => [] },
    {
      name: 'approvals',
      path: '/approvals',
      ready: (p) => p.getByRole('button', { name: 'Approve' }),
      actions: (p) => [p.getByRole('button', { name: 'Approve' }), p.getByRole('button', { name: 'Deny' })],
    },
    {
      name: 'audit',
      path: '/audit',
      ready: (p) => p.getByRole('table').first(),
      actions: (p) => [p.getByRole('button', { name: /export|download|jsonl/i }).first()],
    },
    { name: 'health', path: '/health-status', ready: (p) => p.getByRole('heading', { level: 2 }).first(), actions: () => [] },
  ];

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 780 });
    for (const consolePage of pages) {
      const where = `${consolePage.name} (${consolePage.path}) at ${width} px`;
      await page.goto(consolePage.path);
      await expect(consolePage.ready(page), `${where}: its content`).toBeVisible({ timeout: 30_000 });
      await consolePage.prepare?.(page);
      const overflow = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      const culprits = overflow.scrollWidth > overflow.innerWidth ? (await widestElements(page)).join('; ') : '';
      // Soft: one run lists every page that overflows, not only the first.
      expect
        .soft(overflow.scrollWidth, `${where}: the document is ${overflow.scrollWidth} px wide in a ${overflow.innerWidth} px window: ${culprits}`)
        .toBeLessThanOrEqual(overflow.innerWidth);
      expect.soft(await controlsCutOff(page), `${where}: controls cut off at the screen's edge`).toEqual([]);
      for (const target of [page.getByRole('heading', { level: 1 }), themeToggle(page), menuButton(page), ...consolePage.actions(page)]) {
        await expectOnScreen(page, target, where);
      }
      // Icons are drawn without any font: the bar's are SVGs, and no text needs an emoji font.
      await expect(menuButton(page).locator('svg')).toHaveCount(1);
      await expect(themeToggle(page).locator('svg')).toHaveCount(1);
      expect.soft(await unnamedIcons(page), `${where}: icons neither hidden nor named`).toBe(0);
      expect.soft(await emojiOnPage(page), `${where}: text that needs an emoji font`).toEqual([]);
      // The menu is closed until asked for: the main links take no room (and no tab stops) on a phone.
      await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
      await expect(mainNav(page)).toBeHidden();
    }
  }

  // The menu, by keyboard: it opens with Enter, lists every section on screen, a link takes you there and
  // the menu closes; Escape closes it and gives focus back to its button.
  await page.goto('/agents');
  await menuButton(page).focus();
  await page.keyboard.press('Enter');
  await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'true');
  for (const section of ['Agents', 'Sessions', 'Runs', 'Schedules', 'Approvals', 'Audit', 'Health']) {
    await expectOnScreen(page, mainNav(page).getByRole('link', { name: new RegExp(`^${section}`) }), `menu link ${section}`);
  }
  await expect(mainNav(page).getByTestId('approvals-count')).toHaveText('1 pending');
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, `menu-${WIDTHS[WIDTHS.length - 1]}px`, { fullPage: false });
  // The screenshot switched themes with the theme button: Tab goes on from the menu button again.
  await menuButton(page).focus();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.keyboard.press('Tab');
  await expect(mainNav(page).getByRole('link', { name: 'Agents' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/sessions$/);
  await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
  await expect(mainNav(page)).toBeHidden();
  await menuButton(page).click();
  await expect(mainNav(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(mainNav(page)).toBeHidden();
  await expect(menuButton(page)).toBeFocused();
  // With the menu closed, a pending approval still shows, on the menu button.
  await expect(menuButton(page)).toContainText('1');

  // Wider than a phone, the links are in the bar and the menu button is gone.
  await page.setViewportSize({ width: 1280, height: 780 });
  await expect(mainNav(page)).toBeVisible();
  await expect(menuButton(page)).toBeHidden();
  await api.call('DELETE', `/api/sessions/${sessionId}`);
});
