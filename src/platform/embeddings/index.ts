import type { Config } from '../config.ts';
import type { Embedder } from './embedder.ts';
import { lazyLocalEmbedder } from './local.embedder.ts';
import { createOpenAiEmbedder } from './openai.embedder.ts';

export type { Embedder } from './embedder.ts';
export { cosine, l2Normalize } from './embedder.ts';
export { BUILD_CACHE_COMMAND, createLocalEmbedder, lazyLocalEmbedder, LOCAL_EMBEDDER_ID } from './local.embedder.ts';
export { createOpenAiEmbedder, EmbeddingsEndpointError, type OpenAiEmbedderOptions } from './openai.embedder.ts';
export { buildWordVectorCache } from './word-vector-cache.build.ts';
export { wordVectorCacheExists, wordVectorCacheFile } from './word-vector-cache.ts';

/**
 * The configured embedder. `local` (its vectors read on first use) needs the word-vector cache in DATA_DIR/embeddings (EMBEDDINGS_CACHE_DIR; build it first with
 * buildWordVectorCache; otherwise this throws naming the command); `openai` without EMBEDDINGS_DIMENSIONS sends
 * one probe request to learn the dimension.
 */
export async function createEmbedder(config: Pick<Config, 'embedder'>): Promise<Embedder> {
  const e = config.embedder;
  switch (e.kind) {
    case 'local':
      return lazyLocalEmbedder(e.cacheDir);
    case 'openai':
      return createOpenAiEmbedder({ baseUrl: e.baseUrl, model: e.model, apiKey: e.apiKey, dimensions: e.dimensions });
  }
}
