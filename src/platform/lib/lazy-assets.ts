// Browser assets (bundles from packages, our scripts and styles) read from disk on their first request and kept: an
// idle server holds none of them (pdf.js, Redoc, GraphiQL and their fonts are ~10 MB of strings and buffers).

export interface AssetSpec {
  type: string;
  read: () => string | Buffer;
}

export interface Asset {
  type: string;
  body: string | Buffer;
}

export function lazyAssets(specs: Iterable<readonly [string, AssetSpec]>): { get(name: string): Asset | undefined } {
  const known = new Map(specs);
  const loaded = new Map<string, Asset>();
  return {
    get(name) {
      const hit = loaded.get(name);
      if (hit) return hit;
      const spec = known.get(name);
      if (!spec) return undefined;
      const asset = { type: spec.type, body: spec.read() };
      loaded.set(name, asset);
      return asset;
    },
  };
}
