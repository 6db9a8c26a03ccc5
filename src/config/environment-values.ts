import { z } from 'zod';

/**
 * The parsers of single environment values the settings schema is built from: each names its variable in
 * its message, and treats unset or blank (compose passes unset variables as `${VAR:-}`) as its default.
 */
export const integer = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `${name} must be an integer from ${min} to ${max} (got "${v}")` });
        return z.NEVER;
      }
      return n;
    });

export const oneOf = <T extends string>(name: string, values: readonly T[], fallback: T) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const upper = v.trim();
      const match = values.find((x) => x.toLowerCase() === upper.toLowerCase());
      if (!match) {
        ctx.addIssue({ code: 'custom', message: `${name} must be one of ${values.join(', ')} (got "${v}")` });
        return z.NEVER;
      }
      return match;
    });

export const flag = (name: string, fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      if (['1', 'true', 'yes', 'on'].includes(v.toLowerCase())) return true;
      if (['0', 'false', 'no', 'off'].includes(v.toLowerCase())) return false;
      ctx.addIssue({ code: 'custom', message: `${name} must be true or false (got "${v}")` });
      return z.NEVER;
    });

/** A comma-separated list; blanks dropped. */
export const list = (name: string, check: (entries: string[]) => string[]) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const entries = (v ?? '')
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean);
      for (const problem of check(entries)) ctx.addIssue({ code: 'custom', message: `${name}: ${problem}` });
      return entries;
    });

/** Names (or PREFIX_*) of variables the CLI child may also get; never Switchboard's own. */
export function passthroughProblems(entries: string[]): string[] {
  return entries.flatMap((entry) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*\*?$/.test(entry)) return [`"${entry}" is not a variable name or a PREFIX_* pattern`];
    if (/^SWITCHBOARD_/i.test(entry)) {
      return [`"${entry}" is refused: SWITCHBOARD_* variables (API token, webhook and metrics secrets) never reach the Copilot CLI`];
    }
    return [];
  });
}

/**
 * The URL with its password replaced, for messages and logs: a password is never printed. The user
 * part runs to the last `@`, so a password holding an unescaped `@`, `/` or `:` is hidden all the same.
 */
export function withoutPassword(url: string): string {
  const scheme = url.indexOf('://');
  const at = url.lastIndexOf('@');
  if (scheme < 0 || at < scheme) return url;
  const userInfo = url.slice(scheme + 3, at);
  const colon = userInfo.indexOf(':');
  return colon < 0 ? url : `${url.slice(0, scheme + 3)}${userInfo.slice(0, colon)}:***${url.slice(at)}`;
}

/** A postgres:// or postgresql:// URL naming a host; quoted back in the error without its password. */
export const postgresUrl = (name: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      const url = v.trim();
      let host = '';
      try {
        const parsed = new URL(url);
        // postgresql:///db?host=/run/postgresql: a Unix socket folder instead of a host name.
        host = parsed.hostname || (parsed.searchParams.get('host') ?? '');
      } catch {
        // not a URL at all: the message below
      }
      if (!/^postgres(ql)?:\/\//i.test(url) || host === '') {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be a postgres:// or postgresql:// URL with a host or ?host= socket folder (got "${withoutPassword(url)}")`,
        });
        return z.NEVER;
      }
      return url;
    });

/** A text setting; unset or blank is the default (compose passes unset variables as empty: `${VAR:-}`). */
export const text = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? fallback : v));

/** A duration in whole days or hours (`7d`, `12h`); unset or blank is the default. In milliseconds. */
export const duration = (name: string, fallback: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const given = v === undefined || v.trim() === '' ? fallback : v;
      const match = /^\s*(\d{1,5})\s*([dh])\s*$/.exec(given);
      if (!match) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a number of days or hours, like 7d or 12h (got "${given}")` });
        return z.NEVER;
      }
      return Number(match[1]) * (match[2] === 'd' ? 86_400_000 : 3_600_000);
    });
