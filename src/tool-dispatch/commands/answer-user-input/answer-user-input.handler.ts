import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UserInputBroker } from '../../user-input-broker';
import { AnswerUserInput, type UserInputAnswered } from './answer-user-input.command';

@CommandHandler(AnswerUserInput)
export class AnswerUserInputHandler implements ICommandHandler<AnswerUserInput, UserInputAnswered> {
  constructor(private readonly broker: UserInputBroker) {}

  async execute({ sessionId, requestId, answer }: AnswerUserInput): Promise<UserInputAnswered> {
    const question = this.broker.answer(sessionId, requestId, answer);
    return { requestId: question.requestId, answered: true };
  }
}
