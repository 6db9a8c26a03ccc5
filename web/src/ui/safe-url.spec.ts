import { safeUrl } from './safe-url';

describe('safeUrl (links in model-written markdown)', () => {
  it.each(['https://example.com/a', 'http://x.test', 'mailto:a@b.test', '#part', '/runs/1', 'docs/x.md'])('keeps %s', (url) => {
    expect(safeUrl(url)).toBe(url);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' java\tscript:alert(1)',
    'data:text/html,<script>x</script>',
    'vbscript:x',
    '//evil.test/x',
    '\\\\evil.test\\x',
  ])('drops %s', (url) => {
    expect(safeUrl(url)).toBe('');
  });
});
