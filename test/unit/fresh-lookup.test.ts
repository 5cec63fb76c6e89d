import { expect, test } from 'vitest';
import { freshLookup } from '../../src/platform/lib/fresh-lookup.ts';

test('callers of one turn share a lookup; a caller after it started gets a new one', async () => {
  const started: string[] = [];
  const release: Array<() => void> = [];
  const lookUp = freshLookup((key: string) => {
    const n = started.push(key);
    return new Promise<string>((r) => release.push(() => r(`${key}#${n}`)));
  });
  const first = [lookUp('a'), lookUp('a'), lookUp('b')];
  await new Promise((r) => setImmediate(r));
  expect(started).toEqual(['a', 'b']);
  const later = lookUp('a'); // asked while the first lookup of 'a' is still running
  await new Promise((r) => setImmediate(r));
  expect(started).toEqual(['a', 'b', 'a']);
  release.forEach((r) => r());
  expect(await Promise.all(first)).toEqual(['a#1', 'a#1', 'b#2']);
  expect(await later).toBe('a#3');
});
