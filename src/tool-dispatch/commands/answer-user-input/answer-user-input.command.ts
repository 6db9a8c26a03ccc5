import { Command } from '@nestjs/cqrs';
import { z } from 'zod';

export const userInputAnswerSchema = z.object({ answer: z.string().max(100_000), wasFreeform: z.boolean().default(true) }).strict();

export interface UserInputAnswered {
  requestId: string;
  answered: true;
}

/** Answers a question an agent of the session is waiting on (404 when there is no such pending question). */
export class AnswerUserInput extends Command<UserInputAnswered> {
  constructor(
    readonly sessionId: string,
    readonly requestId: string,
    readonly answer: z.infer<typeof userInputAnswerSchema>,
  ) {
    super();
  }
}
