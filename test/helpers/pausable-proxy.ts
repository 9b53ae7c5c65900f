import { createServer, connect, type Server, type Socket } from 'node:net';

export interface PausableProxy {
  /** The target's connection string with the proxy's port in place of its own. */
  url: string;
  /** Stops forwarding in both directions (bytes wait in buffers): to its clients the database hangs. */
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of Postgres that can freeze every connection through it: the closest stand-in
 * for a paused or partitioned database server that neither answers nor closes.
 */
export async function startPausableProxy(databaseUrl: string): Promise<PausableProxy> {
  const target = new URL(databaseUrl);
  const pairs = new Set<[Socket, Socket]>();
  let paused = false;
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    if (paused) for (const s of pair) s.pause();
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(databaseUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as { port: number }).port);
  return {
    url: proxied.toString(),
    pause() {
      paused = true;
      for (const pair of pairs) for (const s of pair) s.pause();
    },
    resume() {
      paused = false;
      for (const pair of pairs) for (const s of pair) s.resume();
    },
    async close() {
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
