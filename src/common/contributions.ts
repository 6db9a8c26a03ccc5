import { applyDecorators, Injectable, SetMetadata } from '@nestjs/common';
import type { DiscoveryService } from '@nestjs/core';

/**
 * How one context adds to a slot another context owns (the sessions' turn reminders and built-in
 * tools) without the owner importing it: the contributing provider is marked with the slot's key, and
 * the owner finds every marked provider of the app at init through Nest's DiscoveryService, in whichever
 * module it is declared (the same mechanism as `@ReadModelProjection()`). Nothing registers by hand.
 */
export function Contributes(slot: string): ClassDecorator {
  return applyDecorators(Injectable(), SetMetadata(slot, true));
}

/** Every provider instance marked `@Contributes(slot)`, in module and declaration order. */
export function contributionsTo<T extends object>(discovery: DiscoveryService | undefined, slot: string): T[] {
  const found: T[] = [];
  for (const { instance, metatype } of discovery?.getProviders() ?? []) {
    if (instance && metatype && Reflect.getMetadata(slot, metatype)) found.push(instance as T);
  }
  return found;
}
