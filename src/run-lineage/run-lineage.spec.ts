import { ancestorIdsOf, subtreeRange } from './run-lineage';

describe('run lineage paths', () => {
  const root = '0190a1b2-0000-7000-8000-000000000001';
  const child = '0190a1b2-0000-7000-8000-000000000002';
  const grandchild = '0190a1b2-0000-7000-8000-00000000000f';

  it("bounds a subtree so that it holds every descendant's path and no sibling's", () => {
    const { from, to } = subtreeRange(`/${root}/${child}/`);
    const inside = [`/${root}/${child}/`, `/${root}/${child}/${grandchild}/`];
    const outside = [`/${root}/`, `/${root}/${grandchild}/`, `/${root}/${child}x/`.replace('x', ''), `/${root}/0190a1b2-0000-7000-8000-000000000003/`];
    for (const path of inside) expect(path >= from && path < to).toBe(true);
    for (const path of outside.filter((p) => !inside.includes(p))) expect(path >= from && path < to).toBe(false);
  });

  it('reads the ancestors from the path, root first, without the run itself', () => {
    expect(ancestorIdsOf(`/${root}/${child}/${grandchild}/`)).toEqual([root, child]);
    expect(ancestorIdsOf(`/${root}/`)).toEqual([]);
  });
});
