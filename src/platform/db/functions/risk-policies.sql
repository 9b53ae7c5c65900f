-- A policy version is what stored answers name (policy id + version): it is written once and never changed, so
-- GET /api/v1/policies/:id?version=N answers the document that scored them, whatever happened since.
CREATE OR REPLACE FUNCTION risk_policy_versions_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'risk_policy_versions rows are immutable (% of policy % version %)', TG_OP, OLD.policy_id,
    OLD.version;
END;
$$;
CREATE OR REPLACE TRIGGER risk_policy_versions_immutable BEFORE UPDATE OR DELETE ON risk_policy_versions
FOR EACH ROW EXECUTE FUNCTION risk_policy_versions_immutable();
