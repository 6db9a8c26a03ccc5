import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

// Text from a model, a tool's arguments and a person's reason reach the chat and the approvals inbox:
// none of it ever runs as HTML or script in the console (issue 24), whatever it contains.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Each payload sets window.__pwned or opens a dialog if it ever runs. */
const hostile = (tag: string) =>
  `<script>window.__pwned='${tag}-script'</script><img src=x onerror="window.__pwned='${tag}-img';alert('${tag}')">` +
  `<a href="javascript:window.__pwned='${tag}-a'">${tag}-html-link</a>`;

/** Fails the test on any dialog the page opens (alert, confirm, prompt) and on a set window.__pwned. */
async function watchForScript(page: Page): Promise<() => Promise<void>> {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return async () => {
    expect(dialogs).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  };
}

test('hostile markdown and HTML in a model answer, a tool argument and an approval reason is shown as text and never runs', async ({
  page,
  api,
  model,
}) => {
  const s = Date.now().toString(36);
  const command = `echo "ARG_${s} ${hostile('arg')}"`;
  const reason = `REASON_${s} ${hostile('reason')}`;
  const answer = [
    `**ANSWER_${s}** in \`code\``,
    '',
    hostile('answer'),
    '',
    `[md-link-${s}](javascript:window.__pwned='md-link') and ![img-${s}](javascript:alert(1))`,
  ].join('\n');
  model.setScript([
    {
      name: 'runs a hostile command',
      messagesInclude: `HOSTILE_${s}`,
      lastIsToolResult: false,
      answer: { toolCalls: [{ name: 'bash', arguments: { command, description: 'print' } }] },
    },
    { name: 'answers in hostile markdown', messagesInclude: `HOSTILE_${s}`, lastIsToolResult: true, answer: { text: answer } },
  ]);
  const { sessionId } = await api.call<Json>('POST', '/api/sessions', { permissionPolicy: { askKinds: ['shell'] } });
  const check = await watchForScript(page);

  await page.goto(`/sessions/${sessionId}`);
  await page.getByRole('textbox', { name: 'Message' }).fill(`HOSTILE_${s} go`);
  await page.getByRole('button', { name: 'Send' }).click();

  // The tool argument, as the chat shows what waits: the command's text, tags and all.
  const waiting = page.getByRole('list', { name: 'Waiting for approval' });
  await expect(waiting).toContainText(`ARG_${s} <script>window.__pwned='arg-script'</script>`);
  await check();

  // Denied in the inbox with a hostile reason; the inbox shows the argument as text too.
  await waiting.getByRole('link', { name: 'Decide in Approvals' }).click();
  const pending = page.locator('.approval-card').filter({ hasText: `ARG_${s}` });
  await expect(pending).toContainText(`onerror="window.__pwned='arg-img';alert('arg')"`);
  await pending.getByLabel('Reason').fill(reason);
  await pending.getByRole('button', { name: 'Deny' }).click();
  await expect(pending).toHaveCount(0);
  await check();

  await page.goto(`/sessions/${sessionId}`);
  const conversation = page.getByRole('list', { name: 'Conversation' });
  const bubble = conversation.getByLabel('Assistant');
  await expect(bubble.locator('strong')).toHaveText(`ANSWER_${s}`);
  await expect(bubble.locator('code')).toHaveText('code');
  // Raw HTML never becomes elements: no script, image or link made from it.
  await expect(bubble.locator('script, img, iframe')).toHaveCount(0);
  await expect(bubble.getByRole('link', { name: 'answer-html-link' })).toHaveCount(0);
  // A javascript: link keeps its words and loses its target.
  const mdLink = bubble.getByText(`md-link-${s}`);
  await expect(mdLink).toBeVisible();
  expect(
    (await bubble.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''))).filter((href) => /^\s*javascript:/i.test(href)),
  ).toEqual([]);
  await expect(bubble).toContainText(`[image: img-${s}]`);

  // The reason the person gave, as the chat's permission step says it: text, not markup.
  const refusal = conversation.locator('.permission-step').filter({ hasText: `REASON_${s}` });
  await expect(refusal).toContainText(`<img src=x onerror="window.__pwned='reason-img';alert('reason')">`);
  await expect(conversation.locator('script, img, iframe')).toHaveCount(0);
  await refusal.locator('summary').click();
  await expect(refusal.locator('.step-json').first()).toContainText(`ARG_${s}`);
  await check();
  await api.call('DELETE', `/api/sessions/${sessionId}`);
});
