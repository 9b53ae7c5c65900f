import { utcMinute } from '../markets/utc-time';
import { ruleName } from '../screen/screen-words';
import { SeverityBadge } from './case-badges';
import type { CaseAlert } from './case-types';
import { SOURCE_WORDS, shortHash } from './case-words';

/** A finding as the evidence keeps it, `rule category address`, in words: "Sanctioned · sanctions · 0x…". */
function Finding({ text }: { text: string }) {
  const [rule, category, ...rest] = text.split(' ');
  if (!rule || !category || rest.length === 0) return <>{text}</>;
  return (
    <>
      {ruleName(rule)} · {category.replace(/_/g, ' ')} · <span class="mono">{rest.join(' ')}</span>
    </>
  );
}

/** The alerts that opened or joined the case, newest first: where from, how grave, what was found. */
export function CaseAlerts({ alerts }: { alerts: CaseAlert[] }) {
  if (alerts.length === 0) return <p class="hint">No alert is recorded for this case.</p>;
  return (
    <ol class="alert-list" data-testid="case-alerts">
      {alerts.map((a) => (
        <li
          key={`${a.at}:${a.fingerprint}:${a.request_id ?? ''}`}
          class={`monitor-alert case-alert${a.suppressed ? ' case-alert-suppressed' : ''}`}
          data-testid="case-alert"
        >
          <p class="alert-title">
            <span>
              <strong>From {SOURCE_WORDS[a.source] ?? a.source}</strong> <SeverityBadge severity={a.severity} />
              {a.sanctions && <span class="case-tag">sanctions</span>}
              {a.suppressed && <span class="case-tag">suppressed: a false positive's evidence</span>}
            </span>
            <time dateTime={a.at}>{utcMinute(a.at)} UTC</time>
          </p>
          {a.findings.length > 0 ? (
            <ul class="case-findings">
              {a.findings.map((f) => (
                <li key={f}>
                  <Finding text={f} />
                </li>
              ))}
            </ul>
          ) : (
            <p class="hint">No findings listed.</p>
          )}
          <p class="hint">
            {a.request_id ? (
              <>
                Request id <span class="mono">{a.request_id}</span> ·{' '}
              </>
            ) : null}
            evidence <span title={a.fingerprint}>{shortHash(a.fingerprint)}</span>
          </p>
        </li>
      ))}
    </ol>
  );
}
