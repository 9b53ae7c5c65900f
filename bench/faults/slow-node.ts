import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlowNode {
  url: string;
  /** Requests received and not yet answered: analyses waiting on the node right now. */
  inFlight(): number;
  close(): Promise<void>;
}

/**
 * A JSON-RPC forwarder that answers every request `delayMs` late: in front of anvil it stretches each
 * analysis to about a second (150 ms per call), so a worker killed under load is killed inside analyses.
 */
export async function startSlowNode(targetUrl: string, delayMs = 150): Promise<SlowNode> {
  let inFlight = 0;
  const server: Server = createServer(async (req, res) => {
    inFlight += 1;
    res.once('close', () => (inFlight -= 1));
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    await new Promise((r) => setTimeout(r, delayMs));
    try {
      const upstream = await fetch(targetUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.concat(chunks),
      });
      res
        .writeHead(upstream.status, { 'content-type': 'application/json' })
        .end(Buffer.from(await upstream.arrayBuffer()));
    } catch {
      res.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    inFlight: () => inFlight,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
