import { type Message, type Part, type Task, TaskState } from '@a2a-js/sdk';

/** Where a remote task is, as the run that follows it reads it. */
export type RemoteTaskOutcome =
  | { kind: 'completed'; output: string }
  | { kind: 'failed'; error: string }
  /** Still going: `waiting` names what it waits for (input, authentication) with the remote agent's words. */
  | { kind: 'working'; waiting?: string };

/** The text of a message's or artifact's parts: text as it is, data as JSON, files by their URL or name. */
export function textOfParts(parts: readonly Part[]): string {
  return parts
    .map((part) => {
      const content = part.content;
      if (!content) return '';
      if (content.$case === 'text') return content.value;
      if (content.$case === 'data') return JSON.stringify(content.value);
      if (content.$case === 'url') return content.value;
      return part.filename ? `[file ${part.filename}]` : '';
    })
    .filter(Boolean)
    .join('\n');
}

const messageText = (message: Message | undefined) => (message ? textOfParts(message.parts) : '');

/**
 * issue 43: a remote task's state as a run's outcome. Completed: its artifacts' text (its status message
 * when it made none); failed, rejected or cancelled by its service: failed, with the service's words; input
 * or authentication required: still working, waiting on the remote side (the run's time limit still counts).
 */
export function remoteTaskOutcome(task: Task, service: string): RemoteTaskOutcome {
  const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
  const said = messageText(task.status?.message);
  switch (state) {
    case TaskState.TASK_STATE_COMPLETED: {
      const artifacts = task.artifacts.map((artifact) => textOfParts(artifact.parts)).filter(Boolean);
      return { kind: 'completed', output: artifacts.length > 0 ? artifacts.join('\n\n') : said };
    }
    case TaskState.TASK_STATE_FAILED:
      return { kind: 'failed', error: `${service} failed task ${task.id}${said ? `: ${said}` : ''}` };
    case TaskState.TASK_STATE_REJECTED:
      return { kind: 'failed', error: `${service} rejected task ${task.id}${said ? `: ${said}` : ''}` };
    case TaskState.TASK_STATE_CANCELED:
      return { kind: 'failed', error: `${service} cancelled task ${task.id}${said ? `: ${said}` : ''}` };
    case TaskState.TASK_STATE_INPUT_REQUIRED:
      return { kind: 'working', waiting: `${service} needs input${said ? `: ${said}` : ''}` };
    case TaskState.TASK_STATE_AUTH_REQUIRED:
      return { kind: 'working', waiting: `${service} needs authentication${said ? `: ${said}` : ''}` };
    default:
      return { kind: 'working' };
  }
}
