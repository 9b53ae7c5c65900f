import { randomUUID } from 'node:crypto';
import { HISTORY_WEBHOOK_SECRET } from './child-env';
import { sleep } from './report';

/** A history entry as the screening workers post it (spec 4.5), for `userRef`. */
export const historyEntryBody = (userRef: string, requestId = randomUUID()) => ({
  activityType: 'kyt',
  userId: userRef,
  requestId,
  blockchain: 'ethereum',
  transactionHash: `0x${randomUUID().replace(/-/g, '')}`,
  riskLevel: 'medium',
  riskScore: 55,
  statusCode: 200,
  responseSummary: { risk_level: 'MEDIUM', risk_score: 55 },
  metadata: { faults: true },
});

export async function postHistoryEntry(apiUrl: string, body: object): Promise<{ status: number; id?: string } | null> {
  try {
    const res = await fetch(`${apiUrl}/api/webhook/activity`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-activity-webhook-secret': HISTORY_WEBHOOK_SECRET },
      body: JSON.stringify(body),
    });
    const json = (await res.json().catch(() => ({}))) as { id?: string };
    return { status: res.status, id: json.id };
  } catch {
    return null; // connection refused or reset
  }
}

export interface SenderTally {
  /** requestId → the row id of the 201 that finally acknowledged it. */
  acknowledged: Map<string, string>;
  sent: Set<string>;
  serverErrors: number;
  networkErrors: number;
  /** Longest time from a record's first post to its 201. */
  slowestAckMs: number;
}

export const emptyTally = (): SenderTally => ({
  acknowledged: new Map(),
  sent: new Set(),
  serverErrors: 0,
  networkErrors: 0,
  slowestAckMs: 0,
});

/**
 * A sender like the real async workers: posts one new record after another until `stopAt`; a 5xx or a
 * dropped connection is retried with backoff (100 ms doubling to 2 s) until a 201 or `giveUpAt`.
 */
export async function retryingSender(
  apiUrl: string,
  userRef: string,
  tally: SenderTally,
  stopAt: number,
  giveUpAt: number,
): Promise<void> {
  while (Date.now() < stopAt) {
    const body = historyEntryBody(userRef);
    tally.sent.add(body.requestId);
    const first = Date.now();
    let backoff = 100;
    while (Date.now() < giveUpAt) {
      const res = await postHistoryEntry(apiUrl, body);
      if (res?.status === 201 && res.id) {
        tally.acknowledged.set(body.requestId, res.id);
        tally.slowestAckMs = Math.max(tally.slowestAckMs, Date.now() - first);
        break;
      }
      if (res === null) tally.networkErrors += 1;
      else if (res.status >= 500) tally.serverErrors += 1;
      else throw new Error(`activity webhook answered ${res.status}, which a sender must not retry`);
      await sleep(backoff);
      backoff = Math.min(backoff * 2, 2_000);
    }
  }
}
