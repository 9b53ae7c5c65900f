import { useRef, useState } from 'preact/hooks';
import { ApiError } from '../api-client';
import { ErrorNotice } from '../components/error-notice';
import { useSession } from '../context';
import type { GrantResult } from './credit-types';
import { creditsWord } from './credits-word';
import { newRequestKey } from './new-request-key';

/**
 * Admin only: grants credits to any user. One idempotency key per intended grant: it is kept across
 * repeated submits of the same values (a double click, a retry after a lost answer) so the server
 * grants once, and replaced once the grant is confirmed or the values change.
 */
export function GrantForm() {
  const { api, me } = useSession();
  const [userId, setUserId] = useState('');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const requestKey = useRef<string | null>(null);
  const inFlight = useRef(false);

  const edit = (set: (v: string) => void) => (event: Event) => {
    set((event.target as HTMLInputElement).value);
    requestKey.current = null;
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    if (inFlight.current) return;
    const credits = Number(amount);
    if (!userId.trim()) return setError(new ApiError('Enter the user id to grant credits to.', 400));
    if (!Number.isInteger(credits) || credits < 1)
      return setError(new ApiError('Enter a whole number of credits, 1 or more.', 400));
    inFlight.current = true;
    requestKey.current ??= newRequestKey();
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const body = await api.post<{ data: GrantResult }>('/api/v1/credits/grant', {
        userId: userId.trim(),
        amount: credits,
        ...(reason.trim() ? { reason: reason.trim() } : {}),
        idempotencyKey: requestKey.current,
      });
      const r = body.data;
      setDone(
        r.duplicate
          ? `This grant was already made: the balance of ${r.userId} is ${r.balance}.`
          : `Granted ${creditsWord(credits)} to ${r.userId}: their balance is now ${r.balance}.`,
      );
      requestKey.current = null;
      setAmount('');
      setReason('');
    } catch (err) {
      setError(err);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} class="grant-form" aria-describedby="grant-help">
      <p id="grant-help" class="hint">
        Admins only. The user id is the internal id (a UUID) or the Clerk user id. Your own id is{' '}
        <span class="mono">{me.id}</span>.
      </p>
      <div class="form-grid">
        <div>
          <label for="grant-user">User id</label>
          <input
            id="grant-user"
            type="text"
            autoComplete="off"
            spellcheck={false}
            value={userId}
            onInput={edit(setUserId)}
          />
        </div>
        <div>
          <label for="grant-amount">Credits to grant</label>
          <input
            id="grant-amount"
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            value={amount}
            onInput={edit(setAmount)}
          />
        </div>
        <div>
          <label for="grant-reason">Reason (optional)</label>
          <input id="grant-reason" type="text" maxLength={500} value={reason} onInput={edit(setReason)} />
        </div>
      </div>
      <div class="form-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Granting…' : 'Grant credits'}
        </button>
        <button
          type="button"
          class="link"
          onClick={() => {
            setUserId(me.id);
            requestKey.current = null;
          }}
        >
          Use my own id
        </button>
      </div>
      <ErrorNotice error={error} />
      {done && (
        <p class="notice" role="status">
          {done}
        </p>
      )}
    </form>
  );
}
