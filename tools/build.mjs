#!/usr/bin/env node
// `npm run build`: compile src/ to dist/ with tsc (tsconfig.build.json), then copy every file the runtime reads
// beside its module (SDL, stored operations, page assets) into the same place under dist/.
// `node tools/build.mjs --if-stale` (what `npm start` runs) builds only when dist/ is missing or older than
// something it is built from, so `npm ci && npm start` works on a fresh clone.
// Plain JavaScript on purpose: it must run before anything is compiled, without tsx.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');
const STAMP = path.join(DIST, '.built');
const INPUTS = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json', 'tools/build.mjs'].map((f) => path.join(ROOT, f));

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

function newestInput() {
  let newest = 0;
  for (const f of [...files(SRC), ...INPUTS]) if (existsSync(f)) newest = Math.max(newest, statSync(f).mtimeMs);
  return newest;
}

function isStale() {
  return !existsSync(STAMP) || statSync(STAMP).mtimeMs < newestInput();
}

function build() {
  const started = Date.now();
  rmSync(DIST, { recursive: true, force: true });
  // TypeScript 7 (native) compiles; `typescript` itself is 5.9 for typescript-eslint (see README, Lint).
  const tsc = path.join(path.dirname(createRequire(import.meta.url).resolve('typescript7/package.json')), 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  let assets = 0;
  for (const f of files(SRC)) {
    if (f.endsWith('.ts')) continue;
    const out = path.join(DIST, path.relative(SRC, f));
    mkdirSync(path.dirname(out), { recursive: true });
    copyFileSync(f, out);
    assets++;
  }
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
  console.error(`built dist/ in ${Date.now() - started} ms (${assets} asset files copied)`);
}

if (!process.argv.includes('--if-stale') || isStale()) {
  try {
    build();
  } catch {
    console.error('build failed: see the compiler errors above');
    process.exit(1);
  }
}
