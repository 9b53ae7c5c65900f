import { insertHistoryEntries, type Queryable, type StoredHistoryEntry } from './history-entry-inserts';
import type { HistoryEntry } from './history-store';

type Settled = PromiseSettledResult<StoredHistoryEntry>;

const stored = (value: StoredHistoryEntry): Settled => ({ status: 'fulfilled', value });
const failed = (reason: unknown): Settled => ({ status: 'rejected', reason });

/** One key's row, or why it has none. */
function answerFor(rows: Map<string, StoredHistoryEntry>, key: string): Settled {
  const row = rows.get(key);
  return row ? stored(row) : failed(new Error(`history entry ${key} neither inserted nor found`));
}

/** Each entry alone: one bad row (a constraint, say) then fails only its own request. */
async function oneByOne(db: Queryable, entries: HistoryEntry[]): Promise<Map<string, Settled>> {
  const answers = await Promise.all(
    entries.map(async (e): Promise<Settled> => {
      try {
        return answerFor(await insertHistoryEntries(db, [e]), e.idempotencyKey);
      } catch (err) {
        return failed(err);
      }
    }),
  );
  return new Map(entries.map((e, i) => [e.idempotencyKey, answers[i] as Settled]));
}

/**
 * Stores the entries of concurrent requests with one multi-row INSERT and answers each request as if it
 * had been alone. Entries sharing an idempotency key are sent once: the first request gets the
 * statement's answer, the others the same row as a duplicate (inserted: false), as a retry would.
 * If the statement fails, every entry is tried alone, so a row the database refuses fails only its own
 * request (and an outage fails each with its own error, so the sender retries).
 */
export async function recordHistoryEntryBatch(db: Queryable, entries: HistoryEntry[]): Promise<Settled[]> {
  const firstOfKey = new Map<string, HistoryEntry>();
  for (const e of entries) if (!firstOfKey.has(e.idempotencyKey)) firstOfKey.set(e.idempotencyKey, e);
  const unique = [...firstOfKey.values()];

  let byKey: Map<string, Settled>;
  try {
    const rows = await insertHistoryEntries(db, unique);
    byKey = new Map(unique.map((e) => [e.idempotencyKey, answerFor(rows, e.idempotencyKey)]));
  } catch (err) {
    byKey = unique.length === 1 ? new Map([[unique[0]!.idempotencyKey, failed(err)]]) : await oneByOne(db, unique);
  }

  const answered = new Set<string>();
  return entries.map((e) => {
    const answer = byKey.get(e.idempotencyKey) as Settled;
    if (answer.status === 'rejected' || !answered.has(e.idempotencyKey)) {
      answered.add(e.idempotencyKey);
      return answer;
    }
    return stored({ id: answer.value.id, inserted: false });
  });
}
