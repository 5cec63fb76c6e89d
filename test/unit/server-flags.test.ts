import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../bench/server-flags.ts';
import { ROOT } from '../helpers/process.ts';

// The benchmarks measure the server as `npm start` and the Docker image run it: the flags must be the same in all.
const root = new URL('../../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), 'utf8');

describe('the server runs with the same node flags everywhere', () => {
  test('npm start gives node every flag of bench/server-flags.ts', () => {
    const start = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.start!;
    const node = /exec node (.*) dist\/main\.js/.exec(start)?.[1]?.split(' ');
    expect(node).toBeDefined();
    for (const flag of SERVER_NODE_FLAGS) expect(node).toContain(flag);
  });

  test("the Dockerfile's CMD gives node every flag of bench/server-flags.ts", () => {
    const cmd = /^CMD (\[.*"dist\/main\.js"\])$/m.exec(read('Dockerfile'))?.[1];
    expect(cmd).toBeDefined();
    const args = JSON.parse(cmd!) as string[];
    for (const flag of SERVER_NODE_FLAGS) expect(args).toContain(flag);
  });

  test.each([
    ['them', SERVER_NODE_FLAGS],
    // Flags one gives to diagnose or tune a server: V8's and per-process ones, with '=' or with the value apart.
    ['diagnostic flags', [...SERVER_NODE_FLAGS, '--trace-gc', '--expose-gc', '--title', 'partner-api', '--stack-trace-limit=50']],
  ])("a process started with %s starts the server's worker threads (Node refuses V8's flags in a worker)", (_, flags) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'server-flags-'));
    try {
      writeFileSync(path.join(dir, 'worker.mjs'), "import { parentPort } from 'node:worker_threads'; parentPort.postMessage('up');");
      writeFileSync(
        path.join(dir, 'main.mjs'),
        `import { startWorker } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'src/platform/lib/worker-thread.ts')).href)};
        const worker = startWorker(new URL('./worker.mjs', import.meta.url));
        worker.once('message', (m) => { console.log(m); void worker.terminate(); });
        worker.once('error', (err) => { console.log('error: ' + err.message); process.exitCode = 1; });`,
      );
      const out = execFileSync(process.execPath, [...flags, '--import', 'tsx', path.join(dir, 'main.mjs')], { cwd: ROOT, encoding: 'utf8' });
      // --trace-gc writes its lines to stdout too.
      expect(
        out
          .trim()
          .split('\n')
          .filter((line) => !line.includes('ms: ')),
      ).toEqual(['up']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
