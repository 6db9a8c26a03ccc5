import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadModelPrices, modelPriceTable, priceOf } from './model-prices';

describe('loadModelPrices', () => {
  let dir: string;
  beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'model-prices-'))));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const file = (content: string) => {
    const name = path.join(dir, `prices-${++n}.json`);
    fs.writeFileSync(name, content);
    return name;
  };

  it('reads prices per million tokens per model, snake_case cached_input to cachedInput', () => {
    const table = loadModelPrices(
      file(
        JSON.stringify({
          currency: ' USD ',
          models: { 'gpt-4.1': { input: 2, output: 8, cached_input: 0.5 }, 'claude-sonnet-4': { input: 3, output: 15 } },
        }),
      ),
    );
    expect(table.currency).toBe('USD');
    expect([...table.models]).toEqual([
      ['gpt-4.1', { input: 2, output: 8, cachedInput: 0.5 }],
      ['claude-sonnet-4', { input: 3, output: 15 }],
    ]);
    expect(loadModelPrices(file('{"currency":"EUR","models":{}}'))).toEqual({ currency: 'EUR', models: new Map() });
  });

  it('refuses a file it cannot read or parse, naming the file', () => {
    const missing = path.join(dir, 'missing.json');
    expect(() => loadModelPrices(missing)).toThrow(`SWITCHBOARD_MODEL_PRICES: cannot read ${missing} as JSON: ENOENT`);
    const broken = file('{"currency": "USD",');
    expect(() => loadModelPrices(broken)).toThrow(new RegExp(`^SWITCHBOARD_MODEL_PRICES: cannot read ${broken} as JSON: `));
  });

  it('refuses a table that is not one, naming each problem with its place', () => {
    const refusal = (value: unknown) => {
      const name = file(JSON.stringify(value));
      try {
        loadModelPrices(name);
      } catch (error) {
        const message = (error as Error).message;
        expect(message.startsWith(`SWITCHBOARD_MODEL_PRICES: ${name} is not a price table: `)).toBe(true);
        return message.slice(message.indexOf('table: ') + 'table: '.length);
      }
      throw new Error('not refused');
    };
    expect(refusal({ currency: 'USD', models: { 'gpt-4.1': { input: '2', output: 8 } } })).toBe('models.gpt-4.1.input: must be a number');
    expect(refusal({ currency: 'USD', models: { m: { input: -1, output: 8, cached_input: -0.1 } } })).toBe(
      'models.m.input: must not be negative; models.m.cached_input: must not be negative',
    );
    expect(refusal({ currency: ' ', models: {} })).toBe('currency: name the currency, for instance "USD"');
    expect(refusal({ models: { m: { input: 1 } } })).toMatch(/^currency: .*; models\.m\.output: must be a number$/);
    // A misspelt field is named, not ignored: a price silently missing would be an unknown cost.
    expect(refusal({ currency: 'USD', models: { m: { input: 1, output: 2, cachedInput: 1 } } })).toMatch(/^models\.m: .*cachedInput/);
    expect(refusal({ currency: 'USD', models: {}, model: {} })).toMatch(/^\(top\): .*"model"/);
    expect(refusal([1, 2])).toMatch(/^\(top\): /);
    expect(refusal({ currency: 'USD', models: { m: { input: 1, output: 2 }, '': { input: 1, output: 2 } } })).toMatch(/^models\.: /);
  });

  it("prices only the models the file lists: Object.prototype's names are none of them", () => {
    const table = loadModelPrices(file(JSON.stringify({ currency: 'USD', models: { 'gpt-4.1': { input: 2, output: 8 } } })));
    expect(priceOf(table, 'gpt-4.1')).toEqual({ input: 2, output: 8 });
    for (const model of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) expect(priceOf(table, model)).toBeUndefined();
    expect(priceOf(undefined, 'gpt-4.1')).toBeUndefined();
    // A "__proto__" key in the file prices nothing and leaves the table's own shape alone.
    const odd = loadModelPrices(file('{"currency":"USD","models":{"__proto__":{"input":1,"output":1},"m":{"input":1,"output":2}}}'));
    expect(priceOf(odd, '__proto__')).toBeUndefined();
    expect([...odd.models.keys()]).toEqual(['m']);
  });
});

describe('modelPriceTable', () => {
  it("takes a plain object's own entries only", () => {
    const table = modelPriceTable('USD', { m: { input: 1, output: 2 } });
    expect(priceOf(table, 'm')).toEqual({ input: 1, output: 2 });
    expect(priceOf(table, 'constructor')).toBeUndefined();
    expect(priceOf(table, 'toString')).toBeUndefined();
  });
});
