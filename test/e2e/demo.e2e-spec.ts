import { collectUntilExit, spawnTs } from '../fixtures/service-process';

/** The README promises `npm run demo`: it must run offline and print the lineage tree with statuses and usage. */
describe('npm run demo', () => {
  it('delegates from the lead to a foreground researcher and a background writer, then prints the tree', async () => {
    const { code, stdout, stderr } = await collectUntilExit(spawnTs('demo/delegation-demo.ts', [], {}), 120_000);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^lead \[completed\] root run \w+ {2}tokens \d+ \(subtree \d+\), tool calls 2/m);
    expect(stdout).toMatch(/─ researcher \[completed\] foreground run \w+ {2}tokens [1-9]\d*/);
    expect(stdout).toMatch(/─ writer \[completed\] background run \w+ {2}tokens [1-9]\d*/);
    expect(stdout).toContain('output: "Switchboard: every delegation, on the record."');
  }, 150_000);
});
