-- Ledger integrity of payments: payments.reserved_refund_cents is the sum of the payment's
-- refunds that are not Failed, refunded_cents the sum of the Succeeded ones. This trigger keeps
-- both; the CHECK payments_refunds_within_amount then refuses any refund that would take the
-- total above the amount. The UPDATE locks the payment row, so concurrent refunds of one payment
-- are serialised and the second sees the first's reservation.
CREATE OR REPLACE FUNCTION payment_refunds_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'refund % cannot be deleted: refunds are ledger rows', OLD.id USING ERRCODE = 'check_violation';
  END IF;
  IF TG_OP = 'INSERT' THEN
    IF NEW.status <> 'Failed' THEN
      UPDATE payments
         SET reserved_refund_cents = reserved_refund_cents + NEW.amount_cents,
             refunded_cents = refunded_cents + CASE WHEN NEW.status = 'Succeeded' THEN NEW.amount_cents ELSE 0 END
       WHERE id = NEW.payment_id;
    END IF;
    RETURN NEW;
  END IF;
  IF NEW.amount_cents <> OLD.amount_cents OR NEW.payment_id <> OLD.payment_id THEN
    RAISE EXCEPTION 'the amount and payment of refund % cannot change', OLD.id USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.status <> OLD.status THEN
    IF OLD.status <> 'Pending' THEN
      RAISE EXCEPTION 'refund % is % already (final)', OLD.id, OLD.status USING ERRCODE = 'check_violation';
    END IF;
    UPDATE payments
       SET reserved_refund_cents = reserved_refund_cents - CASE WHEN NEW.status = 'Failed' THEN OLD.amount_cents ELSE 0 END,
           refunded_cents = refunded_cents + CASE WHEN NEW.status = 'Succeeded' THEN OLD.amount_cents ELSE 0 END
     WHERE id = NEW.payment_id;
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER payment_refunds_ledger
  BEFORE INSERT OR UPDATE OR DELETE ON payment_refunds
  FOR EACH ROW EXECUTE FUNCTION payment_refunds_ledger();

-- A payment is never deleted either.
CREATE OR REPLACE FUNCTION payments_no_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'payment % cannot be deleted: payments are ledger rows', OLD.id USING ERRCODE = 'check_violation';
END
$$;

CREATE TRIGGER payments_no_delete BEFORE DELETE ON payments FOR EACH ROW EXECUTE FUNCTION payments_no_delete();
