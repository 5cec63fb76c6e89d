import pgvector from 'pgvector';

/**
 * A pgvector `vector` parameter. node-postgres sends it as pgvector's text (`toPostgres`, called by pg's
 * prepareValue); the embedded database gets it in pgvector's binary form (`binary`, sent with format code 1 by
 * pglite-protocol.ts), because PGlite's WebAssembly build reads each of the text's numbers with musl's strtof, which
 * computes in software 128-bit floating point: a 356-number vector took ~1 ms to read, a fifth of a search over
 * 100k documents (docs/decisions.md "Vectors sent in binary"). Both forms carry the same float4 values.
 */
export class VectorValue {
  constructor(readonly values: Float32Array) {}

  /** node-postgres' hook: pgvector's text form, '[1,2.5,…]'. */
  toPostgres(): string {
    return pgvector.toSql(Array.from(this.values)) as string;
  }

  /** What pgvector's `vector_recv` reads: the dimension (int16), an unused int16 (0), then each float4, big-endian. */
  binary(): Uint8Array {
    const out = new DataView(new ArrayBuffer(4 + 4 * this.values.length));
    out.setInt16(0, this.values.length);
    out.setInt16(2, 0);
    for (let i = 0; i < this.values.length; i++) out.setFloat32(4 + 4 * i, this.values[i]!);
    return new Uint8Array(out.buffer);
  }
}
