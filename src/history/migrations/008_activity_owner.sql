-- Activity records name their owner by the identity-provider id the worker sent (user_ref). A record
-- for a user who does not exist yet is kept with user_id NULL and attached when the user appears.
ALTER TABLE activity_history ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE activity_history ADD COLUMN user_ref text;
UPDATE activity_history SET user_ref = user_id::text;
ALTER TABLE activity_history ALTER COLUMN user_ref SET NOT NULL;
CREATE INDEX activity_history_pending_idx ON activity_history (user_ref) WHERE user_id IS NULL;
CREATE INDEX activity_history_user_type_idx ON activity_history (user_id, activity_type, created_at DESC);

-- The triggers that attach and announce the records are in src/platform/db/functions/activity-owner.sql.
