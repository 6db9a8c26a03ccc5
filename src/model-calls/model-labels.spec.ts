import { ModelLabels, OTHER_MODEL } from './model-labels';

describe('ModelLabels', () => {
  it('keeps the priced models and the first models seen, up to the bound; the rest are other', () => {
    const labels = new ModelLabels(['gpt-4.1', 'claude-sonnet-4'], 4);
    expect(labels.of('gpt-4.1')).toBe('gpt-4.1');
    expect(labels.of('seen-1')).toBe('seen-1');
    expect(labels.of('seen-2')).toBe('seen-2');
    expect(labels.of('seen-3')).toBe(OTHER_MODEL);
    // A model already labelled keeps its label; the priced ones were there from the start.
    expect(labels.of('seen-1')).toBe('seen-1');
    expect(labels.of('claude-sonnet-4')).toBe('claude-sonnet-4');
  });

  it('never gives more distinct labels than the bound and other, however many models come', () => {
    const labels = new ModelLabels([], 50);
    const seen = new Set(Array.from({ length: 1000 }, (_, i) => labels.of(`model-${i}`)));
    expect(seen.size).toBe(51);
    expect(seen.has(OTHER_MODEL)).toBe(true);
  });

  it('does not let a model named other take a place of its own', () => {
    const labels = new ModelLabels([], 1);
    expect(labels.of(OTHER_MODEL)).toBe(OTHER_MODEL);
    expect(labels.of('m')).toBe('m');
  });
});
