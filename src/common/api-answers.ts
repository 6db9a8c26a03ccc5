import type { Type } from '@nestjs/common';
import type { ZodType } from 'zod';

/**
 * What one REST operation answers, for the OpenAPI document: the success status, a zod schema of
 * the body and a realistic example (the api-docs spec parses each example with its schema; a route
 * without one fails test/e2e/openapi-document.e2e-spec.ts). Bodies use the spelling the service sends.
 */
export interface DocumentedAnswer {
  status: number;
  description: string;
  /** application/json unless said. */
  contentType?: string;
  schema: ZodType;
  example: unknown;
  /** The body as a client would send it (the spec parses it with the route's own ZodValidationPipe schema). */
  request?: unknown;
  /** Path parameters of this operation whose example differs from the controller's. */
  pathParameters?: Readonly<Record<string, PathParameterExample>>;
}

/** What a real value of a path parameter looks like (Swagger's "Try it out" fills it in). */
export interface PathParameterExample {
  example: string;
  format?: 'uuid';
}

/** The public methods of a controller (its routes), each with its documented answer. */
export type AnswersOf<T> = { [K in keyof T as T[K] extends (...args: never[]) => unknown ? K : never]: DocumentedAnswer };

/** A controller's documented answers, kept in its context beside it. */
export interface ControllerAnswers<T> {
  answers: AnswersOf<T>;
  /** By parameter name, for every route of the controller (an operation may override). */
  pathParameters?: Readonly<Record<string, PathParameterExample>>;
}

/** As the document builder reads them: by method name. */
export interface DocumentedController {
  answers: Readonly<Record<string, DocumentedAnswer>>;
  pathParameters?: Readonly<Record<string, PathParameterExample>>;
}

const DOCUMENTED_ANSWERS = Symbol('documented-answers');

/**
 * Marks a controller with what its routes answer: the OpenAPI document builder reads it from every
 * controller Nest registered, so a new context documents its routes in its own folder and edits
 * nothing central.
 */
export function DocumentedAnswers<T>(documented: ControllerAnswers<T>): (controller: Type<T>) => void {
  const stored: DocumentedController = documented;
  return (controller) => {
    Reflect.defineMetadata(DOCUMENTED_ANSWERS, stored, controller);
  };
}

/** What a controller declared with @DocumentedAnswers, if it did. */
export function documentedAnswersOf(controller: Type<unknown>): DocumentedController | undefined {
  return Reflect.getMetadata(DOCUMENTED_ANSWERS, controller) as DocumentedController | undefined;
}
