import { BadRequestException, PipeTransform } from '@nestjs/common';
import type { ZodType } from 'zod';

/** Validates one request part with a zod schema; a failure is a 400 that names each bad field. */
export class ZodValidationPipe<T> implements PipeTransform<unknown, T> {
  constructor(readonly schema: ZodType<T>) {}

  transform(value: unknown): T {
    const parsed = this.schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const problems = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'value'}: ${i.message}`);
    throw new BadRequestException({ code: 'invalid_input', message: problems.join('; '), details: { problems } });
  }
}
