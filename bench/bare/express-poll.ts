import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { JobStore } from '../../src/screening/jobs-store';

export interface BarePollServer {
  url: string;
  close(): Promise<void>;
}

/**
 * P3's floor: a bare Express app that answers GET /job/:id with the poll's own select (no authentication, no
 * signature, no middleware), the job's stored response written out as it comes. What any Express route over that
 * select costs on this machine, to read the poll's figure against.
 */
export async function startBarePollServer(jobs: JobStore, userId: string): Promise<BarePollServer> {
  const app = express();
  app.get('/job/:id', async (req, res) => {
    const job = await jobs.findPollForUser(req.params.id, userId, false);
    if (!job) return void res.status(404).end();
    res
      .type('application/json')
      .send(`{"success":true,"data":{"status":"${job.status}","response":${job.answerText}}}`);
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
