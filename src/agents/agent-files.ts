import { z } from 'zod';
import { printableName } from '../common';
import { type AgentDefinition, type AgentFields, agentInputSchema, slugify } from './agent-definition';

export interface AgentFile {
  name: string;
  content: string;
}

/**
 * One file of an import, as REST and GraphQL take it: its name is shown in problems and logs, so it is a
 * printable name like any other (issue 39).
 */
export const agentFileSchema = z.object({ name: printableName(z.string().min(1).max(255)), content: z.string().max(1_000_000) });

export interface AgentFileProblem {
  file: string;
  line?: number;
  message: string;
}

export type ParsedAgentFile = { ok: true; file: string; id: string; fields: AgentFields } | { ok: false; problem: AgentFileProblem };

/** One agent JSON file, as teams keep them in git: parse errors come back with file name and line. */
export function parseAgentFile(file: AgentFile): ParsedAgentFile {
  let json: unknown;
  try {
    json = JSON.parse(file.content);
  } catch (error) {
    const message = (error as Error).message;
    const at = locationOfJsonError(file.content, message);
    return {
      ok: false,
      problem: { file: file.name, line: at?.line, message: `invalid JSON: ${describeJsonError(message)}${at ? ` (column ${at.column})` : ''}` },
    };
  }
  const parsed = agentInputSchema.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      problem: {
        file: file.name,
        message: parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
      },
    };
  }
  const { id, created_at: _c, updated_at: _u, ...fields } = parsed.data;
  return { ok: true, file: file.name, id: id ?? slugify(fields.name), fields };
}

/**
 * Where a JSON syntax error is. V8's messages are not enough on their own: Node 20 says
 * "Unexpected token 'x', ..." and "Unexpected end of JSON input" without any position, and the
 * message quotes a piece of the input (which may itself contain "line 3" or "position 9"). So the
 * offset comes from a small scanner first; the message is only a fallback.
 */
function locationOfJsonError(content: string, message: string): { line: number; column: number } | undefined {
  const offset = jsonSyntaxErrorOffset(content) ?? positionInMessage(message);
  if (offset === undefined) return undefined;
  const before = content.slice(0, offset);
  return { line: lineAt(content, offset), column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

/** V8's message without the piece of input it quotes (which spans lines) and without its offset: one line. */
function describeJsonError(message: string): string {
  return message
    .replace(/, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, '')
    .replace(/ (?:in JSON )?at position \d+(?: \(line \d+ column \d+\))?$/, '')
    .replace(/'([\n\r\t])'/g, (_all, ch: string) => JSON.stringify(ch).replace(/"/g, "'"))
    .replace(/\s+/g, ' ')
    .trim();
}

function positionInMessage(message: string): number | undefined {
  const position = /in JSON at position (\d+)/.exec(message);
  return position ? Number(position[1]) : undefined;
}

function lineAt(content: string, offset: number): number {
  return content.slice(0, offset).split('\n').length;
}

/** Offset of the first JSON syntax error (end of input: just after the last non-blank character), undefined when valid. */
export function jsonSyntaxErrorOffset(text: string): number | undefined {
  let i = 0;
  const fail = (at: number): never => {
    throw new JsonScanError(at >= text.length ? text.trimEnd().length : at);
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail(i);
      i++;
    }
  };
  const string = () => {
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail(i);
      const ch = text[i];
      if (ch === '"') return void i++;
      if (ch < ' ') fail(i);
      if (ch === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail(i);
          i += 5;
        } else if (text[i] !== undefined && '"\\/bfnrt'.includes(text[i])) i++;
        else fail(i);
      } else i++;
    }
  };
  const number = () => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match) fail(i);
    i += match![0].length;
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail(i);
        string();
        ws();
        if (text[i] !== ':') fail(i);
        i++;
        value();
        const end = i;
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail(end); // a missing comma belongs to the line of the value before it
      }
    }
    if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        const end = i;
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail(end);
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    number();
  };
  try {
    value();
    ws();
    if (i < text.length) fail(i);
    return undefined;
  } catch (error) {
    if (error instanceof JsonScanError) return error.offset;
    return undefined; // too deeply nested for the stack: the message has to do
  }
}

class JsonScanError extends Error {
  constructor(readonly offset: number) {
    super(`JSON syntax error at ${offset}`);
  }
}

/** Line of `id` inside the file's "sub_agents" list, to point an import problem at the reference. */
export function lineOfSubAgentReference(content: string, id: string): number | undefined {
  const key = /"sub_agents"\s*:/.exec(content);
  if (!key) return undefined;
  const at = content.indexOf(JSON.stringify(id), key.index + key[0].length);
  return at < 0 ? undefined : lineAt(content, at);
}

/** The file a definition is exported to: `<id>.json`, stable key order, trailing newline (diff-friendly). */
export function toAgentFile(agent: AgentDefinition): AgentFile {
  const ordered: AgentDefinition = {
    id: agent.id,
    name: agent.name,
    description: agent.description,
    icon: agent.icon,
    system_message: agent.system_message,
    model: agent.model,
    tools: agent.tools,
    mcp_servers: agent.mcp_servers,
    sub_agents: agent.sub_agents,
    // The delegation policy only when set: unset means "any agent", an empty list means "none".
    ...(agent.allowed_agents !== undefined && { allowed_agents: agent.allowed_agents }),
    ...(agent.excluded_agents !== undefined && { excluded_agents: agent.excluded_agents }),
    ...(agent.hooks !== undefined && { hooks: agent.hooks }),
    // Session defaults only when set, so files written before them stay byte-identical.
    ...(agent.delegation !== undefined && { delegation: agent.delegation }),
    ...(agent.permission_policy !== undefined && { permission_policy: agent.permission_policy }),
    ...(agent.budget !== undefined && { budget: agent.budget }),
    ...(agent.workspace !== undefined && { workspace: agent.workspace }),
    created_at: agent.created_at,
    updated_at: agent.updated_at,
  };
  return { name: `${agent.id}.json`, content: `${JSON.stringify(ordered, null, 2)}\n` };
}
