/** How many calls are remembered: far more than can wait for a permission at once. */
const REMEMBERED_CALLS = 2_000;

/**
 * The tool name of each recent call, from the CLI's `tool.execution_start` events: a built-in tool's
 * permission request names only its kind (`read` for `view`), and the audit must name the tool.
 * Bounded: the oldest call is forgotten first.
 */
export class CallToolNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly capacity = REMEMBERED_CALLS) {}

  remember(toolCallId: string | undefined, toolName: string | undefined): void {
    if (!toolCallId || !toolName) return;
    this.names.delete(toolCallId);
    this.names.set(toolCallId, toolName);
    if (this.names.size > this.capacity) this.names.delete(this.names.keys().next().value as string);
  }

  nameOf(toolCallId: string | undefined): string | undefined {
    return toolCallId ? this.names.get(toolCallId) : undefined;
  }
}
