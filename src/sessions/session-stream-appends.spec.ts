import type { NewEvent } from '../event-store';
import { ChildSessionEvents } from '../child-sessions';
import { RunEvents } from '../delegation';
import { RoutedRequestEvents } from '../tool-dispatch';
import { type ForeignSessionEvent, SESSION_FOREIGN_EVENT_TYPES, foreignSessionAppend, isSessionForeignEventType } from './session-stream-appends';
import { SessionEvents } from './session.events';

describe('foreignSessionAppend', () => {
  it("is the session stream's part of an appendMany, without a version check", () => {
    const event = { type: RunEvents.ended, data: { runId: 'r1' }, metadata: { actor: 'switchboard' } };
    expect(foreignSessionAppend('s1', [event])).toEqual({ streamId: 'session-s1', expectedVersion: 'any', events: [event] });
  });

  it('takes the CLI records the session lifecycle copies', () => {
    expect(foreignSessionAppend('s1', [{ type: 'cli.assistant.message', data: {} }]).events).toHaveLength(1);
  });

  it("refuses a session decider's own event and an unlisted type, naming them and the list", () => {
    // As a caller that went around the type (a cast from an untyped event) would pass them.
    const own: NewEvent = { type: SessionEvents.messageSent, data: {} };
    const unknown: NewEvent = { type: 'run.invented', data: {} };
    expect(() => foreignSessionAppend('s1', [{ type: RunEvents.progress, data: {} }, own as ForeignSessionEvent, unknown as ForeignSessionEvent])).toThrow(
      `${SessionEvents.messageSent}, run.invented may not be appended to session s1's stream`,
    );
    expect(() => foreignSessionAppend('s1', [unknown as ForeignSessionEvent])).toThrow(/SESSION_FOREIGN_EVENT_TYPES/);
  });

  it('lists every event type the other contexts append to a session stream, and nothing else', () => {
    const appended = [
      ...Object.values(ChildSessionEvents),
      ...Object.values(RoutedRequestEvents),
      RunEvents.ended,
      RunEvents.progress,
      RunEvents.delegationRefused,
    ];
    expect(Object.keys(SESSION_FOREIGN_EVENT_TYPES).sort()).toEqual([...appended].sort());
    expect(Object.values(SessionEvents).filter(isSessionForeignEventType)).toEqual([]);
  });
});
