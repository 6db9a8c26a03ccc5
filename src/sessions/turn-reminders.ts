import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Contributes, contributionsTo } from '../common';

/** Context another module wants the main agent to read at the start of its next turn. */
export interface TurnReminder {
  /** Which module it comes from, e.g. `runs`. */
  kind: string;
  text: string;
  /** Kept in the `session.reminded` event; the source's projection marks what was delivered. */
  data: Record<string, unknown>;
}

/** Async: sources read their read models (on PostgreSQL a read is a round trip). */
export type TurnReminderSource = (sessionId: string) => Promise<TurnReminder | undefined>;

/** The slot other contexts' reminder sources are marked with (`@ProvidesTurnReminders()`). */
export const TURN_REMINDER_SOURCES = 'switchboard:turn-reminder-source';

/** A provider, in any module, whose reminder is collected for every turn of every session. */
export interface TurnReminderProvider {
  forSession(sessionId: string): Promise<TurnReminder | undefined>;
}

/** Marks a TurnReminderProvider: TurnReminders finds it at init (see `Contributes`). */
export function ProvidesTurnReminders(): ClassDecorator {
  return Contributes(TURN_REMINDER_SOURCES);
}

/**
 * Reminders prepended to the next prompt of a session (spec: sub-agent-delegation, agent_recovery:
 * the parent is told of runs that ended or were interrupted). Other modules' providers marked
 * `@ProvidesTurnReminders()` are the sources (tests may register by hand); SendMessage records what it
 * delivered in the same append as the message.
 */
@Injectable()
export class TurnReminders implements OnModuleInit {
  private readonly sources: TurnReminderSource[] = [];

  constructor(@Optional() private readonly discovery?: DiscoveryService) {}

  onModuleInit(): void {
    for (const provider of contributionsTo<TurnReminderProvider>(this.discovery, TURN_REMINDER_SOURCES)) {
      this.register((sessionId) => provider.forSession(sessionId));
    }
  }

  register(source: TurnReminderSource): void {
    this.sources.push(source);
  }

  /** Every source's reminder, in registration order. */
  async collect(sessionId: string): Promise<TurnReminder[]> {
    const reminders = await Promise.all(this.sources.map((source) => source(sessionId)));
    return reminders.filter((r): r is TurnReminder => r !== undefined);
  }
}

/** The prompt the CLI receives: the reminders first, then what the caller asked. */
export function withReminders(prompt: string, reminders: readonly TurnReminder[]): string {
  if (reminders.length === 0) return prompt;
  return `${reminders.map((r) => `<system-reminder>\n${r.text}\n</system-reminder>`).join('\n')}\n\n${prompt}`;
}
