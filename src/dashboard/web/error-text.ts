/**
 * Turns any API answer that is not a success into a sentence for a person. The API speaks two error
 * shapes (spec section 7): flat `{success:false, error, code}` and structured
 * `{success:false, error:{code, message, details:{parameter, expected}}}`; anything else (a proxy's
 * HTML, an empty body) still gets words, never raw JSON.
 */
export interface ErrorBody {
  error?: unknown;
  code?: unknown;
  field?: unknown;
  required?: unknown;
  available?: unknown;
}

const STATUS_WORDS: Record<number, string> = {
  400: 'The request was not valid.',
  401: 'You are not signed in, or your key or session is no longer valid. Sign in again.',
  402: 'Your account does not have enough credits for this.',
  403: 'Your account is not allowed to do this.',
  404: 'Nothing was found there.',
  409: 'This conflicts with something that already exists.',
  413: 'That is too large to send.',
  422: 'The request could not be carried out as asked.',
  429: 'Too many requests. Wait a moment and try again.',
  503: 'The service is temporarily unavailable. Nothing was charged; please try again shortly.',
  504: 'The service took too long to answer. Please try again.',
};

const CODE_WORDS: Record<string, (body: ErrorBody) => string | undefined> = {
  // What the work needs is the server's figure (`required`), never a copy of its price.
  INSUFFICIENT_CREDITS: (b) =>
    `Not enough credits: ${b.required === undefined ? '' : `this needs ${String(b.required)}, and `}` +
    `${String(b.available ?? 0)} are available. Buy a package or ask an admin for a grant.`,
  RATE_LIMITED: () => 'Too many requests for your plan this minute. Wait a moment and try again.',
  INSUFFICIENT_PERMISSIONS: () => 'Only an administrator can do this.',
};

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

export function describeApiError(status: number, body: unknown, retryAfterSeconds?: number): string {
  const b = (body && typeof body === 'object' ? body : {}) as ErrorBody;
  const wait = retryAfterSeconds ? ` You can retry in ${retryAfterSeconds} s.` : '';
  if (b.error && typeof b.error === 'object') {
    const { code, message, details } = b.error as {
      code?: string;
      message?: string;
      details?: { parameter?: string; expected?: string };
    };
    const known = code ? CODE_WORDS[code]?.(b) : undefined;
    if (known) return known + wait;
    if (details?.parameter && details.expected)
      return (
        `${sentence(message ?? `“${details.parameter}” is not valid`)} Expected ${details.expected} for ` +
        `“${details.parameter}”.`
      );
    if (message) return sentence(message) + wait;
  }
  if (typeof b.error === 'string' && b.error.trim()) {
    const known = typeof b.code === 'string' ? CODE_WORDS[b.code]?.(b) : undefined;
    return (known ?? sentence(b.error)) + wait;
  }
  if (status >= 500)
    return `The service had a problem answering (HTTP ${status}). Please try again; if it persists, contact support.`;
  return (STATUS_WORDS[status] ?? `The request failed (HTTP ${status}).`) + wait;
}
