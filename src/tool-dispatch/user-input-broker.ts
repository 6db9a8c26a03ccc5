import { currentActor, type Actor, NotFoundError } from '../common';
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';

export interface PendingUserInput {
  requestId: string;
  sessionId: string;
  childSessionId?: string;
  agentName?: string;
  question: string;
  choices: string[];
  allowFreeform: boolean;
  askedAt: string;
}

export interface UserInputAnswer {
  answer: string;
  wasFreeform: boolean;
}

/** An answer and who gave it (issue 27: the person's or key's actor, recorded on `user_input.answered`). */
export type AnsweredUserInput = UserInputAnswer & { by: Actor };

export class UserInputTimeoutError extends Error {}

/** Questions the agent asks the user, held until someone answers through the API or the timeout passes. */
@Injectable()
export class UserInputBroker {
  private readonly pending = new Map<string, { question: PendingUserInput; settle: (a: AnsweredUserInput | Error) => void }>();
  private readonly timeoutMs: number;

  constructor(@Inject(SWITCHBOARD_CONFIG) config: SwitchboardConfig) {
    this.timeoutMs = config.tools.userInputTimeoutMs;
  }

  ask(question: Omit<PendingUserInput, 'requestId' | 'askedAt'>, onAsked?: (q: PendingUserInput) => void): Promise<AnsweredUserInput> {
    const full: PendingUserInput = { ...question, requestId: randomUUID(), askedAt: new Date().toISOString() };
    return new Promise<AnsweredUserInput>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(full.requestId);
        reject(new UserInputTimeoutError(`No answer to "${full.question}" within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending.set(full.requestId, {
        question: full,
        settle: (answer) => {
          clearTimeout(timer);
          this.pending.delete(full.requestId);
          if (answer instanceof Error) reject(answer);
          else resolve(answer);
        },
      });
      onAsked?.(full);
    });
  }

  pendingFor(sessionId: string): PendingUserInput[] {
    return [...this.pending.values()].map((p) => p.question).filter((q) => q.sessionId === sessionId);
  }

  answer(sessionId: string, requestId: string, answer: UserInputAnswer): PendingUserInput {
    const entry = this.pending.get(requestId);
    if (!entry || entry.question.sessionId !== sessionId) {
      throw new NotFoundError(`No pending user-input request ${requestId} on session ${sessionId}`);
    }
    // Answered within the answering request: its actor, though the CLI's request path records the answer.
    entry.settle({ ...answer, by: currentActor() });
    return entry.question;
  }

  /** A destroyed session's questions are cancelled, not left to time out. */
  cancelFor(sessionId: string): void {
    for (const { question, settle } of [...this.pending.values()]) {
      if (question.sessionId === sessionId) settle(new Error(`Session ${sessionId} was destroyed`));
    }
  }
}
