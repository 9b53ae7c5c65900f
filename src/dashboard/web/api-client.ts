import { describeApiError } from './error-text';
import { authHeaders, type Credential } from './session';

/** Which request parameter a 400 named and what it expected (the structured error's `details`). */
export interface ParameterProblem {
  parameter: string;
  expected: string;
  /** The API's own sentence about it (names the parameter and what it expected). */
  message: string;
}

/** A failed API call, already put into words for the person (`message`), with the HTTP status kept for logic. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    /** Lets a form put the problem next to the field it concerns, in its own words. */
    readonly parameter?: ParameterProblem,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiClient {
  get<T>(path: string): Promise<T>;
  /** `headers` adds request headers (an Idempotency-Key, say) to the credential's. */
  post<T>(path: string, body?: unknown, headers?: Record<string, string>): Promise<T>;
  put<T>(path: string, body?: unknown): Promise<T>;
  delete<T>(path: string): Promise<T>;
  /** A file the API serves (a CSV, say), read with the credential, which a plain link could not send. */
  download(path: string): Promise<Blob>;
}

function codeOf(body: unknown): string | undefined {
  const b = body as { code?: unknown; error?: { code?: unknown } } | null;
  const code =
    b && (typeof b.code === 'string' ? b.code : typeof b.error === 'object' && b.error ? b.error.code : undefined);
  return typeof code === 'string' ? code : undefined;
}

function parameterOf(body: unknown): ParameterProblem | undefined {
  const error = (
    body as { error?: { message?: unknown; details?: { parameter?: unknown; expected?: unknown } } } | null
  )?.error;
  const details = error?.details;
  if (!details || typeof details.parameter !== 'string' || typeof details.expected !== 'string') return undefined;
  const message =
    typeof error.message === 'string'
      ? error.message
      : `Invalid parameter "${details.parameter}": expected ${details.expected}`;
  return { parameter: details.parameter, expected: details.expected, message };
}

/** Calls /api/v1 with the signed-in credential and returns the parsed JSON body, or throws an ApiError in words. */
export function createApiClient(credential: Credential, onUnauthorized: () => void): ApiClient {
  const send = async (method: string, path: string, body: unknown, headers: Record<string, string>) => {
    try {
      return await fetch(path, {
        method,
        headers: {
          ...headers,
          ...authHeaders(credential),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ApiError('The service could not be reached. Check your connection and try again.', 0);
    }
  };

  const refusal = async (res: Response): Promise<ApiError> => {
    const parsed = parseJson(await res.text());
    if (res.status === 401) onUnauthorized();
    const retryAfter = Number(res.headers.get('retry-after')) || undefined;
    return new ApiError(
      describeApiError(res.status, parsed, retryAfter),
      res.status,
      codeOf(parsed),
      parameterOf(parsed),
    );
  };

  const request = async <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await send(method, path, body, { accept: 'application/json', ...headers });
    if (!res.ok) throw await refusal(res);
    return parseJson(await res.text()) as T;
  };

  return {
    get: (path) => request('GET', path),
    post: (path, body, headers) => request('POST', path, body ?? {}, headers),
    put: (path, body) => request('PUT', path, body ?? {}),
    delete: (path) => request('DELETE', path),
    download: async (path) => {
      const res = await send('GET', path, undefined, {});
      if (!res.ok) throw await refusal(res);
      return res.blob();
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}
