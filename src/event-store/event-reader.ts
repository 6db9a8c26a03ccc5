import type { DomainEvent } from './decider';

/**
 * A stored payload as a reader of another context sees it: the producer's field names (a renamed or
 * misspelt field does not compile), each value unknown (old events, other versions, odd data: the reader
 * still checks what it takes).
 */
export type Unchecked<Data> = { readonly [Key in keyof NonNullable<Data>]?: unknown };

/** One event of the union `Ev` read that way: its type narrowed, its data's fields named by the producer. */
export type UncheckedEvent<Ev extends DomainEvent> = Ev extends DomainEvent<infer Type, infer Data> ? { type: Type; data: Unchecked<Data> } : never;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A nested part of a payload (`fieldsOf<RunStartedData['replay']>(data.replay)`): its fields, or none when it is not an object. */
export function fieldsOf<Data>(value: unknown): Unchecked<Data> {
  return isRecord(value) ? value : {};
}

/**
 * The typed reader a context exports for its events (`readRunEvent = eventReader<RunEvent>(…)`): an event
 * of one of `types` as its `UncheckedEvent`, switchable on `type`; undefined for any other event.
 */
export function eventReader<Ev extends DomainEvent>(
  types: Iterable<Ev['type']>,
): (event: { type: string; data: unknown }) => UncheckedEvent<Ev> | undefined {
  const known = new Set<string>(types);
  return (event) => {
    if (!known.has(event.type)) return undefined;
    const read: { type: string; data: Record<string, unknown> } = { type: event.type, data: isRecord(event.data) ? event.data : {} };
    // The set holds only `Ev`'s types, and `Unchecked` promises nothing of the values: the view is sound.
    return read as UncheckedEvent<Ev>;
  };
}
