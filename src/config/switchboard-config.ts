import { z } from 'zod';

const integer = (name: string, min: number, max: number, fallback: number) =>
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

const oneOf = <T extends string>(name: string, values: readonly T[], fallback: T) =>
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

const flag = (name: string, fallback: boolean) =>
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

/** Every setting Switchboard reads from the environment, with its default. */
const environmentSchema = z.object({
  PORT: integer('PORT', 1, 65535, 3000),
  HOST: z.string().optional().default('0.0.0.0'),
  SWITCHBOARD_DB: z.string().optional().default('./data/switchboard.db'),
  SWITCHBOARD_DB_SYNCHRONOUS: oneOf('SWITCHBOARD_DB_SYNCHRONOUS', ['FULL', 'NORMAL'] as const, 'FULL'),
  SWITCHBOARD_DB_BUSY_TIMEOUT_MS: integer('SWITCHBOARD_DB_BUSY_TIMEOUT_MS', 0, 600_000, 5000),
  SWITCHBOARD_DB_INTEGRITY_CHECK: flag('SWITCHBOARD_DB_INTEGRITY_CHECK', true),
  SWITCHBOARD_API_TOKEN: z
    .string()
    .optional()
    .refine((v) => v === undefined || v.length === 0 || v.length >= 16, {
      message: 'SWITCHBOARD_API_TOKEN must be at least 16 characters when set',
    }),
  LOG_LEVEL: oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
});

export interface SwitchboardConfig {
  port: number;
  host: string;
  database: {
    file: string;
    synchronous: 'FULL' | 'NORMAL';
    busyTimeoutMs: number;
    integrityCheck: boolean;
  };
  /** undefined: the API is open (development); set: every /api call needs the bearer token. */
  apiToken: string | undefined;
  logLevel: string;
}

export class InvalidConfigurationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'InvalidConfigurationError';
  }
}

/** Validates the environment once at start; a bad value stops the start with a message naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): SwitchboardConfig {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    throw new InvalidConfigurationError(
      parsed.error.issues.map((issue) => {
        const variable = String(issue.path[0] ?? '');
        return issue.message.includes(variable) ? issue.message : `${variable}: ${issue.message}`;
      }),
    );
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    database: {
      file: e.SWITCHBOARD_DB,
      synchronous: e.SWITCHBOARD_DB_SYNCHRONOUS,
      busyTimeoutMs: e.SWITCHBOARD_DB_BUSY_TIMEOUT_MS,
      integrityCheck: e.SWITCHBOARD_DB_INTEGRITY_CHECK,
    },
    apiToken: e.SWITCHBOARD_API_TOKEN ? e.SWITCHBOARD_API_TOKEN : undefined,
    logLevel: e.LOG_LEVEL,
  };
}
