import { type Part, type Task, TaskState } from '@a2a-js/sdk';
import { remoteTaskOutcome, textOfParts } from './remote-task-outcome';

const text = (value: string): Part => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: 'text/plain' });

function task(state: TaskState, said?: string, artifacts: string[][] = []): Task {
  return {
    id: 't-1',
    contextId: 'c-1',
    status: {
      state,
      timestamp: undefined,
      message: said
        ? { messageId: 'm', contextId: 'c-1', taskId: 't-1', role: 2, parts: [text(said)], metadata: undefined, extensions: [], referenceTaskIds: [] }
        : undefined,
    },
    artifacts: artifacts.map((parts, i) => ({
      artifactId: `a${i}`,
      name: '',
      description: '',
      parts: parts.map(text),
      metadata: undefined,
      extensions: [],
    })),
    history: [],
    metadata: undefined,
  };
}

describe("a remote task's state as its run's outcome (issue 43)", () => {
  it("completes with the artifacts' text, or the status message when it made none", () => {
    expect(remoteTaskOutcome(task(TaskState.TASK_STATE_COMPLETED, 'done', [['FOUND 42'], ['and more']]), 'Researcher')).toEqual({
      kind: 'completed',
      output: 'FOUND 42\n\nand more',
    });
    expect(remoteTaskOutcome(task(TaskState.TASK_STATE_COMPLETED, 'only this'), 'Researcher')).toEqual({ kind: 'completed', output: 'only this' });
  });

  it.each([
    [TaskState.TASK_STATE_FAILED, 'Researcher failed task t-1: out of cheese'],
    [TaskState.TASK_STATE_REJECTED, 'Researcher rejected task t-1: out of cheese'],
    [TaskState.TASK_STATE_CANCELED, 'Researcher cancelled task t-1: out of cheese'],
  ])('fails on state %s, naming the service, the task and its words', (state, error) => {
    expect(remoteTaskOutcome(task(state, 'out of cheese'), 'Researcher')).toEqual({ kind: 'failed', error });
  });

  it('keeps working while the remote task works or waits, saying what it waits for', () => {
    expect(remoteTaskOutcome(task(TaskState.TASK_STATE_WORKING, 'thinking'), 'Researcher')).toEqual({ kind: 'working' });
    expect(remoteTaskOutcome(task(TaskState.TASK_STATE_SUBMITTED), 'Researcher')).toEqual({ kind: 'working' });
    expect(remoteTaskOutcome(task(TaskState.TASK_STATE_INPUT_REQUIRED, 'approve bash?'), 'Researcher')).toEqual({
      kind: 'working',
      waiting: 'Researcher needs input: approve bash?',
    });
    expect(remoteTaskOutcome(task(TaskState.TASK_STATE_AUTH_REQUIRED), 'Researcher')).toEqual({
      kind: 'working',
      waiting: 'Researcher needs authentication',
    });
  });

  it('reads data parts as JSON and files by their URL or name', () => {
    expect(
      textOfParts([
        text('a'),
        { content: { $case: 'data', value: { n: 1 } }, metadata: undefined, filename: '', mediaType: '' },
        { content: { $case: 'url', value: 'https://x/y.txt' }, metadata: undefined, filename: 'y.txt', mediaType: '' },
        { content: { $case: 'raw', value: Buffer.from('z') }, metadata: undefined, filename: 'z.bin', mediaType: '' },
      ]),
    ).toBe('a\n{"n":1}\nhttps://x/y.txt\n[file z.bin]');
  });
});
