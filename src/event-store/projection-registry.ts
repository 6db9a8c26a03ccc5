import { Injectable } from '@nestjs/common';
import type { Projection } from './projection';

/** Every projection of the app, registered by its module at init, looked up by the store and the runner. */
@Injectable()
export class ProjectionRegistry {
  private readonly byName = new Map<string, Projection>();

  register(projection: Projection): void {
    if (this.byName.has(projection.name)) {
      throw new Error(`Projection ${projection.name} is registered twice`);
    }
    this.byName.set(projection.name, projection);
  }

  get(name: string): Projection | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  inline(): Projection[] {
    return [...this.byName.values()].filter((p) => p.mode === 'inline');
  }

  async(): Projection[] {
    return [...this.byName.values()].filter((p) => p.mode === 'async');
  }
}
