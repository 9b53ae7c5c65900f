/** Offered under a failed market request (a rate limit passes within the minute; a network error may too). */
export function RetryButton({ onRetry }: { onRetry: () => void }) {
  return (
    <button type="button" class="secondary" onClick={onRetry}>
      Try again
    </button>
  );
}
