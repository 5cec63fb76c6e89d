import net from 'node:net';

/**
 * A loopback proxy in front of pglite-socket that gives one client connection at a time the (single) backend:
 * from a batch of messages (up to Sync, Query, Flush, Terminate) until the backend answers ReadyForQuery with
 * status idle. A connection inside a transaction keeps the backend until the transaction ends.
 *
 * Why: pglite-socket runs every data chunk of every connection on its single backend in arrival order, and a big
 * extended query arrives in several chunks; another connection's chunk landing in between breaks both
 * ("unnamed prepared statement does not exist"). Real Postgres has one backend per connection and needs none of this.
 */
export async function startPgWireProxy(upstream: { host: string; port: number }): Promise<{
  port: number;
  /** Closes every client connection (and its backend connection), as a server restart would; keeps listening. */
  dropConnections(): void;
  close(): Promise<void>;
}> {
  const sockets = new Set<net.Socket>();
  const waiting: Array<{ conn: Conn; batch: Buffer }> = [];
  let owner: Conn | null = null;

  interface Conn {
    upstream: net.Socket;
  }

  const pump = () => {
    while (!owner && waiting.length) {
      const next = waiting.shift()!;
      owner = next.conn;
      next.conn.upstream.write(next.batch);
    }
  };
  const submit = (conn: Conn, batch: Buffer) => {
    if (owner === conn) conn.upstream.write(batch);
    else {
      waiting.push({ conn, batch });
      pump();
    }
  };
  const release = (conn: Conn) => {
    if (owner === conn) owner = null;
    for (let i = waiting.length - 1; i >= 0; i--) if (waiting[i]!.conn === conn) waiting.splice(i, 1);
    pump();
  };

  const proxy = net.createServer((client) => {
    const up = net.connect(upstream);
    const conn: Conn = { upstream: up };
    sockets.add(client).add(up);

    // client → backend: whole batches, through the owner lock; until the backend is first ready (startup,
    // authentication) everything goes straight through.
    let inBuf = Buffer.alloc(0);
    let ready = false;
    let batch: Buffer[] = [];
    const forward = () => {
      if (!ready) {
        up.write(inBuf);
        inBuf = Buffer.alloc(0);
        return;
      }
      for (;;) {
        if (inBuf.length < 5) return;
        const len = inBuf.readInt32BE(1) + 1;
        if (inBuf.length < len) return;
        const type = String.fromCharCode(inBuf[0]!);
        batch.push(inBuf.subarray(0, len));
        inBuf = inBuf.subarray(len);
        if ('SQHXdcf'.includes(type)) {
          submit(conn, Buffer.concat(batch));
          batch = [];
        }
      }
    };
    client.on('data', (chunk: Buffer) => {
      inBuf = Buffer.concat([inBuf, chunk]);
      forward();
    });

    // backend → client: passed through; ReadyForQuery with status idle releases the backend.
    let outBuf = Buffer.alloc(0);
    up.on('data', (chunk: Buffer) => {
      client.write(chunk);
      outBuf = Buffer.concat([outBuf, chunk]);
      while (outBuf.length >= 5) {
        const len = outBuf.readInt32BE(1) + 1;
        if (outBuf.length < len) break;
        if (outBuf[0] === 0x5a /* Z */) {
          if (!ready) {
            ready = true;
            forward();
          } else if (String.fromCharCode(outBuf[5]!) === 'I') release(conn);
        }
        outBuf = outBuf.subarray(len);
      }
    });

    const end = () => {
      release(conn);
      sockets.delete(client);
      sockets.delete(up);
      client.destroy();
      up.destroy();
    };
    for (const s of [client, up]) {
      s.on('error', end);
      s.on('close', end);
    }
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  return {
    port: (proxy.address() as net.AddressInfo).port,
    dropConnections: () => {
      for (const s of sockets) s.destroy();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => proxy.close(r));
    },
  };
}
