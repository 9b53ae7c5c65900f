/**
 * The HTTP client process of bench/lib/http-client-process.ts: runs each round it is sent and answers its latencies.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { HttpRound } from './http-client-process';

const agent = new http.Agent({ keepAlive: true, maxSockets: 1_000 });

/** One request: a GET, or a POST of `body` (its placeholders filled in: HttpRound.body). */
function request(
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; body: string }> {
  const payload = body
    ?.replaceAll('$UUID', () => randomUUID())
    .replaceAll('$HEX32', () => randomBytes(16).toString('hex'));
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        agent,
        method: payload === undefined ? 'GET' : 'POST',
        headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function runRound(r: HttpRound) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(r.concurrency, r.total) }, async () => {
      while (next < r.total) {
        const index = next++;
        const t0 = performance.now();
        const { status, body } = await request(r.urls[index % r.urls.length] as string, r.headers, r.body);
        latencies.push(performance.now() - t0);
        if (status !== r.expectStatus || !body.includes(r.expectText))
          throw new Error(`answered ${status} ${body.slice(0, 200)}`);
      }
    }),
  );
  return { latencies, wallMs: performance.now() - started };
}

process.on('message', (round: HttpRound) => {
  runRound(round).then(
    (run) => process.send?.({ run }),
    (err: Error) => process.send?.({ error: err.message }),
  );
});
process.send?.('ready');
