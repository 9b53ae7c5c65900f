import { ApiError } from '../api-client';

/** Any failure as a sentence in an alert region (read out by screen readers), never as raw JSON. */
export function ErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  const message =
    error instanceof ApiError ? error.message : 'Something went wrong in the page. Reload it and try again.';
  return (
    <p class="notice notice-error" role="alert">
      {message}
    </p>
  );
}
