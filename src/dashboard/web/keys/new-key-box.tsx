import { useEffect, useRef, useState } from 'preact/hooks';
import type { CreatedApiKey } from './key-types';

/**
 * The one showing of a new key. It lives only in the parent's state: dismissing drops it from the
 * page and from memory, and the API never sends it again.
 */
export function NewKeyBox({ created, onDismiss }: { created: CreatedApiKey; onDismiss: () => void }) {
  const [copyState, setCopyState] = useState<string>('');
  const heading = useRef<HTMLHeadingElement>(null);
  const keyText = useRef<HTMLElement>(null);

  // Focus moves here so keyboard and screen-reader users meet the key (and the warning) at once.
  useEffect(() => heading.current?.focus(), [created.id]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopyState('Copied to the clipboard.');
    } catch {
      // No clipboard permission (or plain http): select the text so one keystroke copies it.
      const range = document.createRange();
      if (keyText.current) range.selectNodeContents(keyText.current);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(range);
      setCopyState('The browser did not allow copying: the key is selected, press Ctrl+C (⌘C) to copy it.');
    }
  };

  return (
    <section class="new-key" aria-labelledby="new-key-title" data-testid="new-key-box">
      <h2 id="new-key-title" tabIndex={-1} ref={heading}>
        Your new key “{created.name}”
      </h2>
      <p class="new-key-warning">
        <strong>Copy it now: it will not be shown again.</strong> Only its prefix is kept; if you lose it, revoke it and
        create another.
      </p>
      <code class="mono new-key-value" ref={keyText} data-testid="new-key-value">
        {created.key}
      </code>
      <div class="form-actions">
        <button type="button" onClick={copy}>
          Copy key
        </button>
        <button type="button" class="secondary" onClick={onDismiss}>
          I have saved it, hide the key
        </button>
      </div>
      <p role="status" class="hint">
        {copyState}
      </p>
    </section>
  );
}
