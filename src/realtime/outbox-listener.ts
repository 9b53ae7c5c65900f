import { Client } from 'pg';
import type { AccountEvent } from '../platform/events/account-event';
import { errorFields, type Logger } from '../platform/logging/logger';

/** One row of the realtime outbox (migration 007): an account event (src/platform/events/account-event.ts). */
export type OutboxEvent = AccountEvent;

export interface OutboxListener {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface OutboxListenerOptions {
  connectionString: string;
  log: Logger;
  onEvent: (event: OutboxEvent) => void;
  /**
   * Told of each event as its NOTIFY arrives, before its row is read (one round trip sooner than onEvent): what
   * must not wait (the api's cached credentials, src/identity/identity-cache.ts). onEvent still follows.
   */
  onNotified?: (notice: { event: string; userId: string }) => void;
  /** Told when it starts listening and when it stops (connection lost, stopped): notifications are missed between. */
  onListening?: (listening: boolean) => void;
  /** A NOTIFY can be lost with its connection; this poll catches up regardless. */
  safetyPollMs?: number;
}

const CHANNEL = 'realtime_events';
const BATCH = 500;
const MAX_BACKOFF_MS = 10_000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
// A seq below the highest seen but not yet visible is a transaction still committing (or rolled back).
const GAP_WAIT_MS = 60_000;
const MAX_GAPS = 1_000;

/**
 * Relays outbox rows to `onEvent` in seq order, starting after the rows that existed at start (no
 * replay of past events). A dedicated connection, not a pool client: LISTEN belongs to one session.
 * Each row reaches onEvent once per api instance, in seq order except for late commits; rows of a
 * 60 s gap that never became visible (rolled back) are given up. socket.io itself keeps nothing.
 */
export function createOutboxListener({
  connectionString,
  log,
  onEvent,
  onNotified,
  onListening,
  safetyPollMs = 3_000,
}: OutboxListenerOptions): OutboxListener {
  let client: Client | null = null;
  let lastSeq: number | null = null;
  // Seqs are taken at insert but become visible at commit, so a later seq can be read first.
  // Missing ones are re-asked for a while instead of being skipped for good.
  const gaps = new Map<number, number>();
  let stopped = false;
  let reading: Promise<void> | null = null;
  let readAgain = false;
  let backoffMs = 250;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let lastPrune = 0;
  let poll: NodeJS.Timeout | undefined;

  async function connect(): Promise<void> {
    const c = new Client({ connectionString, application_name: 'chainscreen-realtime' });
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c, new Error('connection ended')));
    c.on('notification', (msg) => {
      notified(msg.payload);
      void read();
    });
    await c.connect();
    try {
      await c.query(`LISTEN ${CHANNEL}`);
      if (lastSeq === null) {
        const { rows } = await c.query<{ max: string }>(
          'SELECT coalesce(max(seq), 0)::text AS max FROM realtime_events',
        );
        lastSeq = Number(rows[0]?.max ?? 0);
      }
    } catch (err) {
      await c.end().catch(() => undefined);
      throw err;
    }
    if (stopped) return void (await c.end().catch(() => undefined));
    client = c;
    backoffMs = 250;
    onListening?.(true);
    void read();
  }

  // realtime_notify's payload (outbox.sql): '<seq> <event> <user id>'.
  function notified(payload: string | undefined): void {
    const [, event, userId] = payload?.split(' ') ?? [];
    if (!onNotified || !event || !userId) return;
    try {
      onNotified({ event, userId });
    } catch (err) {
      log.error('realtime notification handler failed', { ...errorFields(err), event });
    }
  }

  function lost(c: Client, err: Error): void {
    if (client !== c) return;
    client = null;
    onListening?.(false);
    c.end().catch(() => undefined);
    if (stopped) return;
    log.warn('realtime listener lost its connection; reconnecting', errorFields(err));
    scheduleReconnect();
  }

  function scheduleReconnect(): void {
    if (stopped || reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      connect().catch((err) => {
        log.warn('realtime listener reconnect failed', { ...errorFields(err), retryInMs: backoffMs });
        backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
        scheduleReconnect();
      });
    }, backoffMs);
    reconnectTimer.unref();
  }

  // One read at a time; a notification during a read makes the loop go round once more.
  function read(): Promise<void> {
    if (reading) {
      readAgain = true;
      return reading;
    }
    reading = (async () => {
      do {
        readAgain = false;
        const c = client;
        if (!c || lastSeq === null || stopped) break;
        try {
          if ((await readBatch(c)) === BATCH) readAgain = true;
          await pruneNow(c);
        } catch (err) {
          log.warn('realtime listener read failed', errorFields(err));
          // A failure on a connection since replaced must not swallow the new connection's catch-up.
          if (client === c) break;
        }
      } while (readAgain);
    })().finally(() => {
      reading = null;
    });
    return reading;
  }

  async function readBatch(c: Client): Promise<number> {
    const now = Date.now();
    for (const [seq, since] of gaps) if (now - since > GAP_WAIT_MS) gaps.delete(seq);
    // seq is int8: a string, or a number where pool.ts installed its parser; Number() takes both.
    const { rows } = await c.query<{
      seq: string | number;
      user_id: string;
      event: string;
      payload: Record<string, unknown>;
    }>(
      `SELECT seq, user_id, event, payload FROM realtime_events
       WHERE seq > $1 OR seq = ANY($2::bigint[]) ORDER BY seq LIMIT ${BATCH}`,
      [lastSeq, [...gaps.keys()]],
    );
    for (const row of rows) {
      const seq = Number(row.seq);
      if (!gaps.delete(seq)) {
        for (let s = (lastSeq as number) + 1; s < seq && gaps.size < MAX_GAPS; s++) gaps.set(s, now);
        lastSeq = Math.max(lastSeq as number, seq);
      }
      try {
        onEvent({ seq, userId: row.user_id, event: row.event, payload: row.payload });
      } catch (err) {
        log.error('realtime event handler failed', { ...errorFields(err), seq, event: row.event });
      }
    }
    return rows.length;
  }

  async function pruneNow(c: Client): Promise<void> {
    if (Date.now() - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = Date.now();
    await c.query(`DELETE FROM realtime_events WHERE created_at < now() - interval '7 days'`);
  }

  return {
    async start() {
      await connect();
      poll = setInterval(() => void read(), safetyPollMs);
      poll.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(poll);
      clearTimeout(reconnectTimer);
      await reading?.catch(() => undefined);
      const c = client;
      client = null;
      if (c) onListening?.(false);
      await c?.end().catch(() => undefined);
    },
  };
}
