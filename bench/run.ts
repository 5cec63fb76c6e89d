// `npm run bench [-- <name> ... [--option value ...]]`: runs the named benchmarks (default: all), each in its own
// process; the options after the names are handed to each of them (e.g. `npm run bench -- memory --uploads 8`).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from './server-flags.ts';

const BENCHES: Record<string, string> = {
  ocr: 'ocr-responsiveness.ts',
  'ocr-speed': 'ocr-speed.ts',
  embeddings: 'embeddings.ts',
  events: 'events.ts',
  labor: 'labor-report.ts',
  hostile: 'hostile-queries.ts',
  http: 'http/main.ts',
  memory: 'memory.ts',
  apollo: 'apollo-floor.ts',
};
const argv = process.argv.slice(2);
const firstOption = argv.findIndex((a) => a.startsWith('-'));
const names = firstOption < 0 ? argv : argv.slice(0, firstOption);
const options = firstOption < 0 ? [] : argv.slice(firstOption);
const unknown = names.filter((n) => !(n in BENCHES));
if (unknown.length) {
  console.error(`unknown benchmark(s) ${unknown.join(', ')}; known: ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}
for (const name of names.length ? names : Object.keys(BENCHES)) {
  console.log(`\n== ${name} ==`);
  const file = fileURLToPath(new URL(BENCHES[name]!, import.meta.url));
  // A bench that runs the server in its own process (events, ocr) runs it with the flags `npm start` gives it.
  const r = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, '--expose-gc', '--import', 'tsx', file, ...options], {
    stdio: 'inherit',
    env: { ...process.env, METADATA_SERVER_DETECTION: 'none' },
  });
  if (r.status !== 0) process.exitCode = 1;
}
