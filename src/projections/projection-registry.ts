import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { contributionsTo } from '../common';
import { type Projection, READ_MODEL_PROJECTION } from './projection';

/**
 * Every projection of the app, looked up by the inline hook, the runners and rebuilds. At init it
 * registers every provider marked @ReadModelProjection(), in whichever module it is (a projection's
 * set-based forms come with it); tests may register by hand.
 */
@Injectable()
export class ProjectionRegistry implements OnModuleInit {
  private readonly byName = new Map<string, Projection>();
  /** Kept as lists: `inline()` is read on every append, registration happens only at start. */
  private inlineList: Projection[] = [];
  private asyncList: Projection[] = [];

  constructor(@Optional() private readonly discovery?: DiscoveryService) {}

  onModuleInit(): void {
    for (const projection of contributionsTo<Projection>(this.discovery, READ_MODEL_PROJECTION)) this.register(projection);
  }

  register(projection: Projection): void {
    if (this.byName.has(projection.name)) {
      throw new Error(`Projection ${projection.name} is registered twice`);
    }
    this.byName.set(projection.name, projection);
    if (projection.mode === 'inline') this.inlineList = [...this.inlineList, projection];
    else this.asyncList = [...this.asyncList, projection];
  }

  get(name: string): Projection | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  /** The same list until a registration: callers may cache what they derive from it by identity. */
  inline(): readonly Projection[] {
    return this.inlineList;
  }

  async(): readonly Projection[] {
    return this.asyncList;
  }
}
