import type { Page } from '@playwright/test';
import { collectUntilExit, spawnTs } from '../../test/fixtures/service-process';
import { expect, test } from './fixtures';
import { expectNoSeriousA11yViolations } from './support';

// A long session (issue 22 §4): the chat page opens it from its newest events, keeps the DOM small
// however long it is (the conversation is windowed) and loads earlier history as the reader scrolls up.

const TURNS = 500;
const EVENTS_PER_TURN = 10;
const MAX_DOM_NODES = 3_000;

/** The session written into the running service's SQLite file; the service finds it like any session it ran before a restart. */
async function seedLongSession(databaseFile: string, sessionId: string): Promise<number> {
  const seeded = await collectUntilExit(spawnTs('test/fixtures/seed-long-session.ts', [databaseFile, sessionId, String(TURNS)], {}), 60_000);
  const version = Number(seeded.stdout.trim().split('\n').pop());
  if (seeded.code !== 0 || !Number.isInteger(version)) throw new Error(`seeding the session failed (${seeded.code}):\n${seeded.stdout}\n${seeded.stderr}`);
  return version;
}

const conversation = (page: Page) => page.getByRole('list', { name: 'Conversation' });
const domNodes = (page: Page) => page.evaluate(() => document.getElementsByTagName('*').length);

test('a session of 5,000 events opens at its newest messages with a bounded DOM, and scrolling up loads earlier ones', async ({ page, service }) => {
  const sessionId = `long-${Date.now().toString(36)}`;
  expect(await seedLongSession(service.databaseFile, sessionId)).toBe(TURNS * EVENTS_PER_TURN + 3);

  await page.goto(`/sessions/${sessionId}`);
  // The newest answer, in view at the bottom of the conversation; the session's status from the service.
  await expect(conversation(page).getByText(`Answer ${TURNS - 1}`, { exact: true })).toBeInViewport();
  await expect(page.getByTestId('session-status')).toHaveText('interrupted');
  await expect(conversation(page).getByText('Question 0', { exact: true })).toHaveCount(0);
  expect(await domNodes(page)).toBeLessThan(MAX_DOM_NODES);

  // Scrolling to the top loads the page before (the newest page began inside turn 480, after its
  // question) and keeps what the reader looked at in view: the earlier items go above it.
  const history = page.getByRole('region', { name: 'Conversation history' });
  await expect(page.getByRole('button', { name: 'Load earlier messages' })).toBeAttached();
  await history.evaluate((element) => (element.scrollTop = 0));
  await expect(conversation(page).getByText(`Question ${TURNS - 20}`, { exact: true })).toBeAttached();
  await expect(conversation(page).getByText(`Question ${TURNS - 19}`, { exact: true })).toBeInViewport();
  expect(await domNodes(page)).toBeLessThan(MAX_DOM_NODES);

  // All the way back: every page loaded, the first question reached, the DOM still bounded.
  await expect(async () => {
    await history.evaluate((element) => (element.scrollTop = 0));
    await expect(conversation(page).getByText('Question 0', { exact: true })).toBeInViewport({ timeout: 500 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Load earlier messages' })).toHaveCount(0);
  expect(await domNodes(page)).toBeLessThan(MAX_DOM_NODES);
  await expect(conversation(page).getByText(`Answer ${TURNS - 1}`, { exact: true })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
});
