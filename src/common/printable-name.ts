import type { z } from 'zod';

/** C0 controls (U+0000–U+001F), DEL and the C1 controls (U+007F–U+009F): Unicode's general category Cc. */
const CONTROL = /\p{Cc}/u;
/** Half of a surrogate pair without the other half: no character at all. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What is wrong with a name people read (a key's, an agent's, a schedule's), or undefined: a control
 * character (issue 39: a key named "\u0000" was accepted) or a lone surrogate would show as nothing, or
 * break a log line, a CSV cell or a terminal. Says which character and where, and what to send instead.
 */
export function nameTextProblem(value: string): string | undefined {
  const control = CONTROL.exec(value);
  if (control) {
    const code = control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    return `must not contain control characters (U+${code} at position ${control.index + 1}); use printable text without line breaks or tabs`;
  }
  const lone = LONE_SURROGATE.exec(value);
  if (lone) return `must be well-formed Unicode (a lone surrogate at position ${lone.index + 1}); send valid UTF-8 text`;
  return undefined;
}

/** The one refinement every user-given name or title schema goes through (the field is named by the issue's path). */
export function printableName<T extends z.ZodType<string>>(schema: T): T {
  return schema.superRefine((value, ctx) => {
    const problem = nameTextProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
}
