/**
 * Lower-case, accents stripped (NFKD, combining marks removed), split on anything that is not a letter or a digit.
 * The word-vector cache stores its vocabulary in this same form, so lookups need no further normalisation.
 */
export function tokenize(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}
