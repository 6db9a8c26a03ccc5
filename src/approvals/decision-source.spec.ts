import { personDecisionSource } from './decision-source';

describe('personDecisionSource', () => {
  it('is the console only when the console names itself, the API otherwise', () => {
    expect(personDecisionSource('console')).toBe('console');
    expect(personDecisionSource([' Console '])).toBe('console');
    expect(personDecisionSource(undefined)).toBe('api');
    expect(personDecisionSource('curl')).toBe('api');
  });
});
