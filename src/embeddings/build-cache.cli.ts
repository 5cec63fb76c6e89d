// Builds the local embedder's word-vector cache: `npx tsx src/embeddings/build-cache.cli.ts <DATA_DIR>/embeddings`.

import { buildWordVectorCache } from './word-vector-cache.build.ts';

const dir = process.argv[2];
if (!dir) {
  process.stderr.write('usage: npx tsx src/embeddings/build-cache.cli.ts <DATA_DIR>/embeddings\n');
  process.exit(2);
}
const built = await buildWordVectorCache(dir, {
  onProgress: (done, total) => process.stderr.write(`\r${done}/${total} words`),
});
process.stderr.write('\n');
process.stdout.write(`${JSON.stringify(built)}\n`);
