import { useMemo, useRef, useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice';
import { useSession } from '../context';
import { hrefFor } from '../hash-route';
import { DefaultPolicyLine } from '../policies/default-policy-line';
import { DEFAULT_POLICY_PATH, policyPath } from '../policies/policy-api';
import { PolicyEditor } from '../policies/policy-editor';
import { type PolicyActions, PolicyTable } from '../policies/policy-table';
import type { PolicyView } from '../policies/policy-types';
import { usePolicies } from '../policies/use-policies';
import { usePolicyBounds } from '../policies/use-policy-bounds';
import type { PanelProps } from './panel-props';

/** What a save came to, in words: a new policy, a new version, or nothing new (an identical document). */
function savedWords(saved: PolicyView, before: PolicyView | null): string {
  if (!before) return `Created “${saved.name}” as version ${saved.version}.`;
  if (before.version === saved.version)
    return `Nothing changed in the settings: “${saved.name}” stays at version ${saved.version}.`;
  return `Saved “${saved.name}” as version ${saved.version}; answers scored under version ${before.version} keep it.`;
}

/**
 * The account's risk policies (#/policies), a new one (#/policies/new) or one to edit (#/policies/<id>): list, make
 * default, delete, and the editor bounded by the model's limits.
 */
export function PoliciesPanel({ route }: PanelProps) {
  const { api } = useSession();
  const { policies, defaultPolicyId, error, reload } = usePolicies();
  const { bounds, error: boundsError } = usePolicyBounds();
  const [saved, setSaved] = useState<{ id: string; text: string } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const listHeading = useRef<HTMLHeadingElement>(null);
  const selectedId = route[0] ?? null;
  const creating = selectedId === 'new';
  const selected = creating ? null : (policies?.find((p) => p.id === selectedId) ?? null);

  const actions = useMemo<PolicyActions>(
    () => ({
      makeDefault: async (id) => {
        await api.put(DEFAULT_POLICY_PATH, { policy_id: id });
        await reload();
        setAnnouncement('The default policy was changed.');
      },
      remove: async (id) => {
        await api.delete(policyPath(id));
        await reload();
        setAnnouncement(`The policy ${id} was deleted.`);
        // Its row (and the button that had the focus) is gone: the list's heading takes the focus instead.
        listHeading.current?.focus();
        if (id === selectedId) window.location.hash = hrefFor('policies');
      },
    }),
    [api, reload, selectedId],
  );

  const onSaved = async (view: PolicyView, before: PolicyView | null) => {
    setSaved({ id: view.id, text: savedWords(view, before) });
    await reload();
    if (!before) window.location.hash = hrefFor('policies', view.id);
  };

  return (
    <>
      <section aria-labelledby="policies-title" aria-busy={policies || error ? 'false' : 'true'}>
        <h1 id="policies-title" tabIndex={-1} ref={listHeading}>
          Risk policies
        </h1>
        <p class="hint">
          A policy changes how your answers are scored (category severities and weights, severe categories, which
          indirect hits count, the level cut-offs) within the limits of the risk model. Answers name the policy version
          that scored them and keep the standard model's score beside it.
        </p>
        <p class="visually-hidden" role="status">
          {announcement}
        </p>
        <ErrorNotice error={error} />
        {!policies && !error && <p role="status">Loading your policies…</p>}
        {policies && (
          <>
            <DefaultPolicyLine
              policy={policies.find((p) => p.id === defaultPolicyId) ?? null}
              onClear={async () => {
                await api.delete(DEFAULT_POLICY_PATH);
                await reload();
                setAnnouncement('Jobs that name no policy are scored by the standard model again.');
              }}
            />
            <PolicyTable policies={policies} selectedId={selectedId} actions={actions} />
            {!creating && (
              <p>
                <a href={hrefFor('policies', 'new')} class="button-link">
                  New policy
                </a>
              </p>
            )}
          </>
        )}
      </section>
      {selectedId && (
        <section aria-labelledby="policy-editor-title" data-testid="policy-editor">
          <h2 id="policy-editor-title">
            {creating ? 'New policy' : selected ? `Edit ${selected.name} (version ${selected.version})` : 'Policy'}
          </h2>
          {saved && saved.id === selectedId && (
            <p class="notice" role="status" data-testid="policy-saved">
              {saved.text}
            </p>
          )}
          <ErrorNotice error={boundsError} />
          {!bounds && !boundsError && <p role="status">Loading the model's limits…</p>}
          {policies && !creating && !selected && (
            <p class="notice notice-error" role="alert">
              You have no policy “{selectedId}”. <a href={hrefFor('policies')}>Back to the list</a>
            </p>
          )}
          {bounds && policies && (creating || selected) && (
            <PolicyEditor
              key={selected ? `${selected.id}:${selected.version}:${selected.default}` : 'new'}
              bounds={bounds}
              policy={selected}
              existingIds={policies.map((p) => p.id)}
              onSaved={onSaved}
            />
          )}
        </section>
      )}
    </>
  );
}
