import { describeApiError } from './error-text';
import { authHeaders, type Credential } from './session';

/** Which request parameter a 400 named and what it expected (the structured error's `details`). */
export interface ParameterProblem {
  parameter: string;
  expected: string;
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
  post<T>(path: string, body?: unknown): Promise<T>;
  put<T>(path: string, body?: unknown): Promise<T>;
  delete<T>(path: string): Promise<T>;
}

function codeOf(body: unknown): string | undefined {
  const b = body as { code?: unknown; error?: { code?: unknown } } | null;
  const code =
    b && (typeof b.code === 'string' ? b.code : typeof b.error === 'object' && b.error ? b.error.code : undefined);
  return typeof code === 'string' ? code : undefined;
}

function parameterOf(body: unknown): ParameterProblem | undefined {
  const details = (body as { error?: { details?: { parameter?: unknown; expected?: unknown } } } | null)?.error
    ?.details;
  return details && typeof details.parameter === 'string' && typeof details.expected === 'string'
    ? { parameter: details.parameter, expected: details.expected }
    : undefined;
}

/** Calls /api/v1 with the signed-in credential and returns the parsed JSON body, or throws an ApiError in words. */
export function createApiClient(credential: Credential, onUnauthorized: () => void): ApiClient {
  const request = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    let res: Response;
    try {
      res = await fetch(path, {
        method,
        headers: {
          accept: 'application/json',
          ...authHeaders(credential),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ApiError('The service could not be reached. Check your connection and try again.', 0);
    }
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (res.ok) return parsed as T;
    if (res.status === 401) onUnauthorized();
    const retryAfter = Number(res.headers.get('retry-after')) || undefined;
    throw new ApiError(
      describeApiError(res.status, parsed, retryAfter),
      res.status,
      codeOf(parsed),
      parameterOf(parsed),
    );
  };
  return {
    get: (path) => request('GET', path),
    post: (path, body) => request('POST', path, body ?? {}),
    put: (path, body) => request('PUT', path, body ?? {}),
    delete: (path) => request('DELETE', path),
  };
}
