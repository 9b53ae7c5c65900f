/**
 * An event about one account, written by a feature in the transaction that made it true (the outbox) and relayed
 * to every api instance once committed: its sockets hear it, and features observe it (a dropped credential, a
 * paused thing to resume).
 */
export interface AccountEvent {
  /** The outbox row's sequence number: events reach each instance in this order (late commits aside). */
  seq: number;
  userId: string;
  event: string;
  payload: Record<string, unknown>;
}

/** What an instance hears first, as the NOTIFY arrives, before the event's row is read. */
export type AccountEventNotice = Pick<AccountEvent, 'event' | 'userId'>;

/** An account event a feature writes (its `realtime_notify` calls), as its module declares it. */
export interface AccountEventDeclaration {
  readonly name: string;
  /** What happened, and the payload's fields. */
  readonly description: string;
  /** Read by this service only (a cache, a workflow to wake); sockets get it too, the dashboard ignores it. */
  readonly internal?: boolean;
}

/** How a feature observes account events (FeatureModule.accountEvents); each part is optional. */
export interface AccountEventObserver {
  /** Each event's notice, one round trip before the event: for what must not wait (cached credentials). */
  notified?(notice: AccountEventNotice): void;
  /** Each event once per instance, before the sockets get it. */
  event?(event: AccountEvent): void;
  /** Whether notices are being heard (they are missed while not): a cache then stops serving. */
  listening?(listening: boolean): void;
}
