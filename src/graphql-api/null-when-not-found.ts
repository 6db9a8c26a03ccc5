import { NotFoundError } from '../common';

const isNotFound = (error: unknown): boolean =>
  error instanceof NotFoundError || (typeof error === 'object' && error !== null && 'code' in error && error.code === 'not_found');

/** A single-item query's answer: null for an item that does not exist (where REST answers 404); any other error is thrown. */
export async function nullWhenNotFound<Item>(lookup: Promise<Item>): Promise<Item | null> {
  try {
    return await lookup;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}
