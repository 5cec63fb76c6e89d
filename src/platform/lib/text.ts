import { InvalidInput } from '../errors.ts';

/** Trimmed text or null; longer than `max` is 400. */
export function optionalText(value: string | null | undefined, field: string, max: number): string | null {
  const text = value?.trim();
  if (!text) return null;
  if (text.length > max) throw InvalidInput.field(field, `must be at most ${max} characters`);
  return text;
}
