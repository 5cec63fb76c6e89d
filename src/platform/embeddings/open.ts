import type { Config } from '../config.ts';
import type { Embedder } from './embedder.ts';
import { createEmbedder } from './index.ts';
import { buildWordVectorCache } from './word-vector-cache.build.ts';
import { wordVectorCacheExists } from './word-vector-cache.ts';

/**
 * The configured embedder, ready to use. For `local`, a missing word-vector cache is built first (once, from the
 * npm package's vectors: about 10 s); later starts only load the compact cache (~0.1 s).
 */
export async function openEmbedder(config: Pick<Config, 'embedder'>, log: { info(obj: object, msg: string): void }): Promise<Embedder> {
  const e = config.embedder;
  if (e.kind === 'local' && !wordVectorCacheExists(e.cacheDir)) {
    log.info({ cacheDir: e.cacheDir }, 'building the word-vector cache for search (first start only)');
    const built = await buildWordVectorCache(e.cacheDir);
    log.info({ words: built.words, bytes: built.bytes, ms: Math.round(built.ms) }, 'word-vector cache built');
  }
  return createEmbedder(config);
}
