import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { POSTGRES_BATCH_FORM, type PgProjection } from './postgres/pg-projection';
import { type Projection, READ_MODEL_PROJECTION } from './projection';

/**
 * Every projection of the app, looked up by the store and the runner. At init it registers every
 * provider marked @ReadModelProjection(), in whichever module it is, and every @PostgresBatchForm();
 * tests may register by hand.
 */
@Injectable()
export class ProjectionRegistry implements OnModuleInit {
  private readonly byName = new Map<string, Projection>();
  private readonly batchForms = new Map<string, PgProjection>();
  /** Kept as lists: `inline()` is read on every append, registration happens only at start. */
  private inlineList: Projection[] = [];
  private asyncList: Projection[] = [];

  constructor(@Optional() private readonly discovery?: DiscoveryService) {}

  onModuleInit(): void {
    for (const { instance, metatype } of this.discovery?.getProviders() ?? []) {
      if (!instance || !metatype) continue;
      if (Reflect.getMetadata(READ_MODEL_PROJECTION, metatype)) this.register(instance as Projection);
      if (Reflect.getMetadata(POSTGRES_BATCH_FORM, metatype)) this.registerBatchForm(instance as PgProjection);
    }
  }

  register(projection: Projection): void {
    if (this.byName.has(projection.name)) {
      throw new Error(`Projection ${projection.name} is registered twice`);
    }
    this.byName.set(projection.name, projection);
    if (projection.mode === 'inline') this.inlineList = [...this.inlineList, projection];
    else this.asyncList = [...this.asyncList, projection];
  }

  /** The PostgreSQL batch form of the projection of the same name (see PostgresBatchForm). */
  registerBatchForm(form: PgProjection): void {
    if (this.batchForms.has(form.name)) throw new Error(`Projection ${form.name} has two PostgreSQL batch forms`);
    this.batchForms.set(form.name, form);
  }

  get(name: string): Projection | undefined {
    return this.byName.get(name);
  }

  /** What runs on PostgreSQL in place of the projection's own statements, if it has a batch form. */
  batchForm(name: string): PgProjection | undefined {
    return this.batchForms.get(name);
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
