import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * One recorded exchange. REST requests match on `METHOD path?sorted-query`; JSON-RPC requests (a POST
 * body with `method`) match on path + method + canonical params (the id is ignored).
 */
export interface Cassette {
  request: {
    method: 'GET' | 'POST';
    path: string;
    query?: Record<string, string>;
    rpc?: { method: string; params?: unknown };
  };
  response: { status?: number; body: unknown; headers?: Record<string, string> };
  /** Fault injection: answer after this many ms, or never. */
  delayMs?: number;
  hang?: boolean;
  /** Served this many times, then the next matching cassette answers (e.g. one 429, then the data). */
  times?: number;
}

export interface ReplayServer {
  url: string;
  /** Requests no cassette matched: every test asserts this is empty. */
  misses: string[];
  /** Every request key served, in order. */
  served: string[];
  close(): Promise<void>;
}

const canonical = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(',')}]`
    : v && typeof v === 'object'
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(v);

function keyOf(
  method: string,
  path: string,
  query: URLSearchParams | Record<string, string> | undefined,
  rpc?: { method: string; params?: unknown },
): string {
  const q = new URLSearchParams(query as Record<string, string>);
  q.sort();
  const qs = q.toString();
  return `${method} ${path}${qs ? `?${qs}` : ''}${rpc ? ` rpc:${rpc.method} ${canonical(rpc.params ?? [])}` : ''}`;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => resolve(body));
  });

/** A strict replay HTTP server on 127.0.0.1: real sockets, recorded answers, and a miss list instead of invention. */
export async function startReplayServer(cassettes: Cassette[]): Promise<ReplayServer> {
  const remaining = cassettes.map((c) => ({
    c,
    key: keyOf(c.request.method, c.request.path, c.request.query, c.request.rpc),
    left: c.times ?? Infinity,
  }));
  const misses: string[] = [];
  const served: string[] = [];
  const hanging = new Set<ServerResponse>();

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://replay');
    const text = req.method === 'POST' ? await readBody(req) : '';
    let rpc: { method: string; params?: unknown; id?: unknown } | undefined;
    try {
      const parsed = text ? JSON.parse(text) : undefined;
      if (parsed && typeof parsed.method === 'string') rpc = parsed;
    } catch {
      /* not JSON-RPC */
    }
    const key = keyOf(
      req.method ?? 'GET',
      url.pathname,
      url.searchParams,
      rpc ? { method: rpc.method, params: rpc.params } : undefined,
    );
    const hit = remaining.find((r) => r.key === key && r.left > 0);
    if (!hit) {
      misses.push(key);
      res
        .writeHead(599, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: `no cassette for ${key}` }));
      return;
    }
    hit.left -= 1;
    served.push(key);
    if (hit.c.hang) {
      hanging.add(res);
      return;
    }
    if (hit.c.delayMs) await new Promise((r) => setTimeout(r, hit.c.delayMs));
    let body = hit.c.response.body;
    // JSON-RPC answers carry the caller's id, as a real node would.
    if (rpc && body && typeof body === 'object' && 'jsonrpc' in (body as object))
      body = { ...(body as object), id: rpc.id ?? null };
    res
      .writeHead(hit.c.response.status ?? 200, { 'content-type': 'application/json', ...hit.c.response.headers })
      .end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    misses,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
