import { recordSensitiveHeaders } from './run-log';

export interface HttpAnswer {
  status: number;
  body: any;
  headers: Headers;
}

export type HttpCall = (
  method: string,
  path: string,
  options?: { key?: string; headers?: Record<string, string>; body?: unknown },
) => Promise<HttpAnswer>;

/** A request to `baseUrl` as TestStack.http sends it: the key as x-api-key, JSON in, JSON (or text) out. */
export function httpCall(baseUrl: string): HttpCall {
  return async (method, path, { key, headers = {}, body } = {}) => {
    recordSensitiveHeaders({ ...(key ? { 'x-api-key': key } : {}), ...headers });
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(key ? { 'x-api-key': key } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* keep text */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
}
