import net from 'node:net';
/**
 * Fails at once when the port is taken, before migrations and model loading (which take seconds): "port 4000 on
 * 127.0.0.1 is already in use", no stack. Port 0 (any free port) is never taken.
 */
export async function ensurePortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') reject(new PortInUse(`port ${port} on ${host} is already in use: stop the other server or set PORT`));
      else if (err.code === 'EACCES') reject(new PortInUse(`port ${port} on ${host} needs privileges this process does not have: set PORT above 1023`));
      else reject(err);
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** The port cannot be listened on; `npm start` prints the message alone. */
export class PortInUse extends Error {
  override name = 'PortInUse';
}
