// releaseFreedMemory (src/platform/lib/malloc-trim.ts) gives glibc's free heap back: in a child process (for
// --expose-gc), 200 MB of 64 KB buffers — allocated on the malloc heap, below its mmap threshold — are freed but
// for a few pinned between them, so the heap cannot shrink from its top; after the trim the process's RSS falls.
import { execFileSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { ROOT } from '../helpers/process.ts';

const SCRIPT = `
import { readFileSync } from 'node:fs';
import { releaseFreedMemory } from './src/platform/lib/malloc-trim.ts';
const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
let chunks = Array.from({ length: 3200 }, () => Buffer.alloc(64 * 1024, 1));
const pinned = chunks.filter((_, i) => i % 400 === 399);
chunks = null;
globalThis.gc(); globalThis.gc();
const before = rss();
const trimmed = await releaseFreedMemory();
console.log(JSON.stringify({ trimmed, before, after: rss(), pinned: pinned.length }));
`;

test.runIf(process.platform === 'linux')('the free heap goes back to the OS: RSS falls by most of the 200 MB freed', () => {
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', SCRIPT], { cwd: ROOT, encoding: 'utf8' });
  const { trimmed, before, after } = JSON.parse(out.trim().split('\n').at(-1)!) as { trimmed: boolean; before: number; after: number };
  console.log(`RSS after freeing 200 MB: ${before.toFixed(0)} MB; after the trim: ${after.toFixed(0)} MB`);
  expect(trimmed).toBe(true);
  expect(before - after).toBeGreaterThan(150);
});
