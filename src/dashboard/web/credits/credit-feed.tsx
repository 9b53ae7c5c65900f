import { utcClock } from '../markets/utc-time';
import { creditsWord } from './credits-word';
import { describeFeedEntry, type CreditFeedEntry } from './use-credit-feed';

/** The live feed; the newest entry is also read out through the status region. */
export function CreditFeed({ entries }: { entries: CreditFeedEntry[] }) {
  const latest = entries[0];
  return (
    <>
      <p role="status" class={latest ? 'notice' : 'hint'} data-testid="credit-announcement">
        {latest
          ? describeFeedEntry(latest)
          : 'Nothing yet: grants and charges appear here as they happen while this page is open.'}
      </p>
      {entries.length > 0 && (
        <ol class="credit-feed" data-testid="credit-feed">
          {entries.map((entry) => (
            <li key={entry.id} class={`feed-${entry.kind}`}>
              <strong>
                {entry.kind === 'grant' ? `+${creditsWord(entry.amount)}` : `−${creditsWord(entry.amount)}`}
              </strong>
              <span>{entry.kind === 'revoke' ? `taken back: ${entry.source}` : entry.source}</span>
              {entry.debt ? (
                <span>{entry.kind === 'grant' ? `${entry.debt} repaid debt` : `${entry.debt} owed`}</span>
              ) : null}
              <span>balance {entry.balance}</span>
              <time dateTime={entry.at}>{utcClock(entry.at)}</time>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
