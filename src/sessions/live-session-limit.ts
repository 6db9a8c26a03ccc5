import { Inject, Injectable } from '@nestjs/common';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import type { LiveSession } from './live-session';
import { TooManyLiveSessionsError } from './session.errors';
import { SessionRegistry } from './session-registry';

/**
 * Statuses of a session the CLI holds in memory; interrupted, failed and destroyed ones cost it nothing,
 * and so does one between turns that no CLI of this process holds yet (generation 0, after a restart).
 */
const LIVE: ReadonlySet<LiveSession['status']> = new Set(['starting', 'active', 'running', 'idle']);

export interface LiveSessionSlot {
  /** Gives the slot back: once the session is counted by its own status, or when it did not start. */
  release(): void;
}

/**
 * SWITCHBOARD_MAX_LIVE_SESSIONS: every live session costs the CLI memory and a model context, so a
 * create or resume past the cap is refused (429) instead of degrading every other session. A create or
 * resume holds a slot across its awaits, so concurrent requests cannot overshoot the cap together.
 */
@Injectable()
export class LiveSessionLimit {
  private readonly max: number;
  private reserved = 0;

  constructor(
    @Inject(SWITCHBOARD_CONFIG) config: SwitchboardConfig,
    private readonly registry: SessionRegistry,
  ) {
    this.max = config.resilience.maxLiveSessions;
  }

  /** Live sessions, counting the ones being created or resumed right now. */
  count(): number {
    return this.registry.all().filter((s) => LIVE.has(s.status) && s.cliGeneration > 0).length + this.reserved;
  }

  /** A slot for one more live session, or TooManyLiveSessionsError when the cap is reached. */
  reserve(): LiveSessionSlot {
    const live = this.count();
    if (live >= this.max) throw new TooManyLiveSessionsError(this.max, live);
    this.reserved += 1;
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.reserved -= 1;
      },
    };
  }
}
