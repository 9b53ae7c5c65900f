-- Credit events, through the realtime outbox (src/realtime/functions/020_outbox.sql): every ledger row is
-- announced to its owner's sockets in the transaction that wrote it. Until the functions files existed this was in
-- migration 007, rewritten by 015.

-- credits_granted and credit_balance_updated for every ledger row. A grant that repaid debt moves the balance by
-- less than it granted (delta = amount - debtRepaid); a revoke moves it by what it took from the balance.
CREATE OR REPLACE FUNCTION credit_transactions_to_outbox() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_repaid bigint := coalesce((NEW.metadata ->> 'debtRepaid')::bigint, 0);
BEGIN
  IF NEW.kind = 'grant' THEN
    PERFORM realtime_notify(NEW.user_id, 'credits_granted', jsonb_build_object(
      'transactionId', NEW.id,
      'amount', NEW.amount,
      'balance', NEW.balance_after,
      'source', NEW.source,
      'eventId', NEW.metadata ->> 'eventId',
      'grantedAt', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      -- debtRepaid only when the grant repaid debt: the event keeps its documented shape otherwise.
      || CASE WHEN v_repaid > 0 THEN jsonb_build_object('debtRepaid', v_repaid) ELSE '{}'::jsonb END);
    PERFORM realtime_notify(NEW.user_id, 'credit_balance_updated', jsonb_build_object(
      'balance', NEW.balance_after, 'delta', NEW.amount - v_repaid, 'reason', coalesce(NEW.reason, NEW.source)));
  ELSIF NEW.kind = 'consume' THEN
    PERFORM realtime_notify(NEW.user_id, 'credit_balance_updated', jsonb_build_object(
      'balance', NEW.balance_after, 'delta', -NEW.amount, 'reason', coalesce(NEW.reason, NEW.source)));
  ELSIF NEW.kind = 'revoke' THEN
    PERFORM realtime_notify(NEW.user_id, 'credit_balance_updated', jsonb_build_object(
      'balance', NEW.balance_after, 'delta', -(NEW.metadata ->> 'fromBalance')::bigint,
      'debtAdded', (NEW.metadata ->> 'debtAdded')::bigint, 'reason', coalesce(NEW.reason, NEW.source)));
  END IF;
  RETURN NULL;
END;
$$;

CREATE OR REPLACE TRIGGER credit_transactions_outbox AFTER INSERT ON credit_transactions
FOR EACH ROW EXECUTE FUNCTION credit_transactions_to_outbox();
