import { ApiError } from './client';

describe('ApiError.fieldProblems', () => {
  it('reads every shape of problem the service sends, by the field it names', () => {
    const error = new ApiError('refused', 'endpoint_refused', 422, {
      problems: [
        'name: must not be empty',
        { field: 'hooks[1].url', reason: 'the URL is refused by the outbound guard: metadata address' },
        { id: 'reviewer', reason: 'reviewer has custom tools (deploy)' },
        { field: 'ignored without a reason' },
        'a problem without a field',
      ],
    });
    expect([...error.fieldProblems()]).toEqual([
      ['name', ['must not be empty']],
      ['hooks[1].url', ['the URL is refused by the outbound guard: metadata address']],
      ['sub_agents.reviewer', ['reviewer has custom tools (deploy)']],
      ['', ['a problem without a field']],
    ]);
  });
});
