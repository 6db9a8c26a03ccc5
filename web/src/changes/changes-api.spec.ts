import { ApiError } from '../api/client';
import { changesPath, checkpointsPath, diffPath, loadChanges, loadDiff } from './changes-api';

/** The tab's storage the token lives in: jest's node environment has none. */
const storage = new Map<string, string>();
Object.assign(globalThis, {
  sessionStorage: {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => storage.set(k, v),
    removeItem: (k: string) => storage.delete(k),
  },
});

function answer(status: number, body: string, contentType = 'application/json'): Response {
  return new Response(status === 204 ? null : body, { status, headers: { 'content-type': contentType } });
}

describe('the workspace routes the Changes view reads', () => {
  const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
  beforeEach(() => {
    fetchMock.mockReset();
    storage.clear();
    globalThis.fetch = fetchMock as unknown as typeof fetch;
  });

  it('names a session’s and a run’s routes, the run’s subtree and one file of the diff', () => {
    expect(changesPath({ kind: 'session', id: 's1' })).toBe('/api/sessions/s1/changes');
    expect(changesPath({ kind: 'run', id: 'r1', subtree: false })).toBe('/api/runs/r1/changes');
    expect(changesPath({ kind: 'run', id: 'r1', subtree: true })).toBe('/api/runs/r1/changes?subtree=true');
    expect(diffPath({ kind: 'run', id: 'r1', subtree: true })).toBe('/api/runs/r1/diff');
    expect(diffPath({ kind: 'session', id: 's1' }, 'src/a b&c.ts')).toBe('/api/sessions/s1/diff?path=src%2Fa%20b%26c.ts');
    // A replay against its original: the files and the diff of the two worktrees.
    expect(changesPath({ kind: 'run', id: 'r2', subtree: false, against: 'r1' })).toBe('/api/runs/r2/changes?against=r1');
    expect(diffPath({ kind: 'run', id: 'r2', subtree: false, against: 'r1' }, 'a.txt')).toBe('/api/runs/r2/diff?path=a.txt&against=r1');
    expect(checkpointsPath({ kind: 'run', id: 'r1', subtree: true })).toBe('/api/runs/r1/checkpoints');
  });

  it('reads the service’s 404 (no workspace) as null, not an error', async () => {
    fetchMock.mockResolvedValue(answer(404, JSON.stringify({ code: 'not_found', message: 'Session s1 has no workspace' })));
    await expect(loadChanges({ kind: 'session', id: 's1' })).resolves.toBeNull();
  });

  it('sends the tab’s token and reads the diff as text', async () => {
    storage.set('switchboard.apiToken', 'tok-0123456789abcdef');
    fetchMock.mockResolvedValue(answer(200, 'diff --git a/x b/x\n', 'text/x-diff'));
    await expect(loadDiff({ kind: 'run', id: 'r1', subtree: false }, 'x')).resolves.toBe('diff --git a/x b/x\n');
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/runs/r1/diff?path=x');
    expect(init.headers).toMatchObject({ Authorization: 'Bearer tok-0123456789abcdef' });
  });

  it('turns any other refusal into an ApiError with the service’s code and words', async () => {
    fetchMock.mockResolvedValue(answer(502, JSON.stringify({ code: 'workspace_git_failed', message: 'fatal: not a git repository' })));
    const refused = loadChanges({ kind: 'run', id: 'r1', subtree: true });
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ code: 'workspace_git_failed', statusCode: 502, message: 'fatal: not a git repository' });
  });

  it('says the service cannot be reached when the request never got an answer', async () => {
    fetchMock.mockRejectedValue(new TypeError('fetch failed'));
    await expect(loadChanges({ kind: 'session', id: 's1' })).rejects.toMatchObject({ code: 'unreachable' });
  });
});
