import { Injectable } from '@nestjs/common';
import type { Projection } from './projection';

/** Every projection of the app, registered by its module at init, looked up by the store and the runner. */
@Injectable()
export class ProjectionRegistry {
  private readonly byName = new Map<string, Projection>();
  /** Kept as lists: `inline()` is read on every append, registration happens only at start. */
  private inlineList: Projection[] = [];
  private asyncList: Projection[] = [];

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

  inline(): readonly Projection[] {
    return this.inlineList;
  }

  async(): readonly Projection[] {
    return this.asyncList;
  }
}
