import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { filter, type Subscription } from 'rxjs';
import { contributionsTo } from '../common';
import { EventStore } from '../event-store';
import { ApiKeyEvents } from './keys/api-key.events';
import { ApiKeysReadModel } from './keys/api-keys-read-model';
import { AUTHENTICATORS, type Authenticator, type Credential, type CredentialEnding, type Principal } from './principal';

/** A stream a credential holds open: an SSE response or a graphql-ws socket. `end` closes it saying why. */
export interface OpenStream {
  end(ending: CredentialEnding): void;
}

/**
 * How often the credentials of open streams are read again: a sign-in session ended on another instance
 * (no event: a row of a shared table) closes its streams here within this, and so does anything the
 * live paths below missed. One statement per credential kind, only while such streams are open.
 */
export const CREDENTIAL_CHECK_MS = 500;

/** setTimeout's largest delay; an expiry further off is left to the periodic check. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Holder {
  credential: Credential;
  name: string;
  streams: Set<OpenStream>;
  expiry?: NodeJS.Timeout;
}

/**
 * issue 39: the open streams (SSE responses, graphql-ws sockets) of every credential that can end, so a
 * revoked or expired key or sign-in session loses them within a second instead of keeping them:
 * - a key's revocation is an event: `committed$` carries it on every instance (PostgreSQL's included);
 * - a sign-in session's end is a row: its revoker calls `end` here, and the other instances read the rows
 *   of their open sessions every CREDENTIAL_CHECK_MS;
 * - an expiry is a timer at `expiresAt` (and the same periodic read).
 * The bootstrap token and the open local API have no credential: they end only with a restart.
 */
@Injectable()
export class CredentialStreams implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(CredentialStreams.name);
  private readonly holders = new Map<string, Holder>();
  private authenticators: Authenticator[] = [];
  private revocations?: Subscription;
  private check?: NodeJS.Timeout;
  private checking = false;

  constructor(
    private readonly store: EventStore,
    private readonly keys: ApiKeysReadModel,
    @Optional() private readonly discovery?: DiscoveryService,
  ) {}

  onApplicationBootstrap(): void {
    this.authenticators = contributionsTo<Authenticator>(this.discovery, AUTHENTICATORS);
    this.revocations = this.store.committed$.pipe(filter((event) => event.type === ApiKeyEvents.revoked)).subscribe((event) => {
      const { keyId } = event.data as { keyId: string };
      const holder = this.holders.get(keyOf({ kind: 'api_key', id: keyId }));
      if (holder) void this.endKey(holder);
    });
  }

  onModuleDestroy(): void {
    this.revocations?.unsubscribe();
    clearInterval(this.check);
    for (const holder of this.holders.values()) clearTimeout(holder.expiry);
    this.holders.clear();
  }

  /** Registers a stream of this principal; answers what unregisters it (call it when the stream closes anyway). */
  open(principal: Principal, stream: OpenStream): () => void {
    const credential = principal.credential;
    if (!credential) return () => undefined;
    const key = keyOf(credential);
    let holder = this.holders.get(key);
    if (!holder) {
      holder = { credential, name: principal.name, streams: new Set() };
      this.holders.set(key, holder);
      this.armExpiry(holder);
    }
    holder.streams.add(stream);
    this.check ??= setInterval(() => void this.checkOpenCredentials(), CREDENTIAL_CHECK_MS).unref();
    return () => this.release(key, stream);
  }

  /** Closes every open stream of this credential, now (the revoker's own instance does not wait for the check). */
  end(credential: Pick<Credential, 'kind' | 'id'>, ending: CredentialEnding): void {
    const key = keyOf(credential);
    const holder = this.holders.get(key);
    if (!holder) return;
    this.holders.delete(key);
    clearTimeout(holder.expiry);
    this.logger.log(
      { credential: { kind: credential.kind, id: credential.id }, streams: holder.streams.size, code: ending.code },
      'closing the streams of an ended credential',
    );
    for (const stream of holder.streams) {
      try {
        stream.end(ending);
      } catch (error) {
        this.logger.warn(`Could not close a stream of ${credential.kind} ${credential.id}: ${String(error)}`);
      }
    }
    this.stopCheckingWhenIdle();
  }

  /** How many streams are open for this credential (what the tests and /metrics could read). */
  openStreams(credential: Pick<Credential, 'kind' | 'id'>): number {
    return this.holders.get(keyOf(credential))?.streams.size ?? 0;
  }

  private release(key: string, stream: OpenStream): void {
    const holder = this.holders.get(key);
    if (!holder?.streams.delete(stream) || holder.streams.size > 0) return;
    clearTimeout(holder.expiry);
    this.holders.delete(key);
    this.stopCheckingWhenIdle();
  }

  private stopCheckingWhenIdle(): void {
    if (this.holders.size > 0) return;
    clearInterval(this.check);
    this.check = undefined;
  }

  private armExpiry(holder: Holder): void {
    if (!holder.credential.expiresAt) return;
    const delay = Date.parse(holder.credential.expiresAt) - Date.now();
    if (delay > MAX_TIMER_MS) return;
    const ending: CredentialEnding =
      holder.credential.kind === 'api_key'
        ? { code: 'credential_expired', message: `API key "${holder.name}" expired at ${holder.credential.expiresAt}: have an admin create a new one` }
        : { code: 'credential_expired', message: 'Your sign-in session expired: sign in again at /auth/login' };
    holder.expiry = setTimeout(() => this.end(holder.credential, ending), Math.max(0, delay));
    holder.expiry.unref();
  }

  /** Reads the row of a revoked key: the ending names the key and when it was revoked. */
  private async endKey(holder: Holder): Promise<void> {
    const endings = await this.keys.endingsOf([holder.credential.id]).catch(() => new Map<string, CredentialEnding>());
    this.end(
      holder.credential,
      endings.get(holder.credential.id) ?? { code: 'credential_revoked', message: `API key "${holder.name}" was revoked: use another key` },
    );
  }

  /** One read per credential kind with open streams; what has ended since loses its streams. */
  private async checkOpenCredentials(): Promise<void> {
    if (this.checking || this.holders.size === 0) return;
    this.checking = true;
    try {
      const idsOf = (kind: Credential['kind']) => [...this.holders.values()].filter((h) => h.credential.kind === kind).map((h) => h.credential.id);
      const keyIds = idsOf('api_key');
      const found: Array<{ kind: Credential['kind']; endings: Map<string, CredentialEnding> }> = [];
      if (keyIds.length > 0) found.push({ kind: 'api_key', endings: await this.keys.endingsOf(keyIds) });
      for (const authenticator of this.authenticators) {
        const kind = authenticator.credentialKind;
        if (!kind || !authenticator.endingsOf) continue;
        const ids = idsOf(kind);
        if (ids.length > 0) found.push({ kind, endings: await authenticator.endingsOf(ids) });
      }
      for (const { kind, endings } of found) for (const [id, ending] of endings) this.end({ kind, id }, ending);
    } catch (error) {
      // A database that cannot be reached now is read again at the next check.
      this.logger.warn(`Could not check the credentials of open streams: ${String(error)}`);
    } finally {
      this.checking = false;
    }
  }
}

const keyOf = (credential: Pick<Credential, 'kind' | 'id'>): string => `${credential.kind}:${credential.id}`;
