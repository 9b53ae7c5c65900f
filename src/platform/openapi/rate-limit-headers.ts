import type { HeaderObject } from './json-schema';

/** `components.headers`: what every answer under a per-account limit carries (src/platform/rate-limit). */
export const RATE_LIMIT_HEADERS: Record<string, HeaderObject> = {
  'RateLimit-Limit': {
    description: "Requests per window: of the key's tier (market data), or JOB_SUBMIT_LIMIT_PER_MINUTE (job submits)",
    required: true,
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in this window',
    required: true,
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the window resets',
    required: true,
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  'RateLimit-Policy': {
    description: '`<limit>;w=<window seconds>`',
    required: true,
    schema: { type: 'string', examples: ['60;w=60'] },
  },
};

/** The RateLimit headers by reference to `components.headers`, where they are always present. */
export const rateLimitHeaderRefs = () =>
  Object.fromEntries(Object.keys(RATE_LIMIT_HEADERS).map((h) => [h, { $ref: `#/components/headers/${h}` }]));

/** The RateLimit headers, marked required or not (a job submit carries them only while its limit is on). */
export const rateLimitHeaders = (required: boolean): Record<string, HeaderObject> =>
  Object.fromEntries(Object.entries(RATE_LIMIT_HEADERS).map(([name, header]) => [name, { ...header, required }]));

/** What every refusal over a limit says to wait. */
export const RETRY_AFTER_HEADER: HeaderObject = {
  description: 'Seconds to wait',
  required: true,
  schema: { type: 'string', pattern: '^\\d+$' },
};
