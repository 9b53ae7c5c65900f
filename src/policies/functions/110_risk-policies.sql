-- Whether a stored job, rescore or batch of the account names this policy version: what a stored answer names must
-- stay readable at GET /api/v1/policies/:id?version=N. Each EXISTS is one probe of an index of migration 029 (the
-- version compared as the text the JSON holds).
CREATE OR REPLACE FUNCTION risk_policy_version_referenced(p_user uuid, p_policy text, p_version integer)
RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM screening_jobs j
                 WHERE j.user_id = p_user AND j.policy_id = p_policy AND j.policy IS NOT NULL
                   AND j.policy ->> 'version' = p_version::text)
      OR EXISTS (SELECT 1 FROM job_rescores r
                 WHERE r.user_id = p_user AND r.policy_id = p_policy AND r.policy_version = p_version)
      OR EXISTS (SELECT 1 FROM screening_batches b
                 WHERE b.user_id = p_user AND b.policy IS NOT NULL AND b.policy ->> 'id' = p_policy
                   AND b.policy ->> 'version' = p_version::text);
$$;

-- A policy version is what stored answers name (policy id + version): it is written once and never changed, so
-- GET /api/v1/policies/:id?version=N answers the document that scored them, whatever happened since. It may be
-- deleted only once superseded (not the policy's latest version) and named by no job, rescore or batch: that is
-- what prune_risk_policy_versions deletes, and whoever else asks is refused.
CREATE OR REPLACE FUNCTION risk_policy_versions_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE'
     AND OLD.version < (SELECT p.latest_version FROM risk_policies p
                        WHERE p.user_id = OLD.user_id AND p.policy_id = OLD.policy_id)
     AND NOT risk_policy_version_referenced(OLD.user_id, OLD.policy_id, OLD.version) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'risk_policy_versions rows are immutable (% of policy % version %)', TG_OP, OLD.policy_id,
    OLD.version;
END;
$$;
CREATE OR REPLACE TRIGGER risk_policy_versions_immutable BEFORE UPDATE OR DELETE ON risk_policy_versions
FOR EACH ROW EXECUTE FUNCTION risk_policy_versions_immutable();

-- Bounds a policy's versions (called when a new version is written, in its transaction, under the policy's row
-- lock): deletes every superseded version no job, rescore or batch names. What remains is the current version and
-- the versions stored answers name, so edits alone cannot grow the table. Returns how many were deleted.
CREATE OR REPLACE FUNCTION prune_risk_policy_versions(p_user uuid, p_policy text) RETURNS integer
LANGUAGE sql AS $$
  WITH pruned AS (
    DELETE FROM risk_policy_versions v
    USING risk_policies p
    WHERE p.user_id = p_user AND p.policy_id = p_policy
      AND v.user_id = p_user AND v.policy_id = p_policy AND v.version < p.latest_version
      AND NOT risk_policy_version_referenced(p_user, p_policy, v.version)
    RETURNING 1
  )
  SELECT count(*)::integer FROM pruned;
$$;
