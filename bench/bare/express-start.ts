import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';

export interface BareStartServer {
  url: string;
  close(): Promise<void>;
}

/**
 * A bare Express app whose one route starts the bare workflow and answers 200: the HTTP round trip a webhook
 * acknowledgement pays on top of its workflow start, with no signature, parsing or middleware of the service.
 */
export async function startBareStartServer(start: () => Promise<void>): Promise<BareStartServer> {
  const app = express();
  app.post('/start', async (_req, res) => {
    await start();
    res.json({ success: true });
  });
  const server = createServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/start`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
