import { createServer } from 'node:net';

/** Binds `port` (0: any) on 127.0.0.1 and closes it again; resolves with the port bound, null when it is taken. */
function probe(port: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(null) : reject(err)));
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as { port: number };
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A TCP port free on 127.0.0.1 right now, for servers that cannot bind port 0 and report back (the
 * Temporal SDK's exporter).
 */
export async function freeLocalPort(): Promise<number> {
  return (await probe(0)) as number;
}

/**
 * A port free on 127.0.0.1 below `limit`, tried at random from 10000 up: for servers that cannot take the OS's
 * ephemeral ports (32768 and up on Linux), like the Temporal server, whose Postgres schema keeps its services'
 * ports in a smallint.
 */
export async function freeLocalPortBelow(limit: number): Promise<number> {
  const low = 10_000;
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = await probe(low + Math.floor(Math.random() * (limit - low)));
    if (port !== null) return port;
  }
  throw new Error(`no free port between ${low} and ${limit} after 100 tries`);
}
