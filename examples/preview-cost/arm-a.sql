-- Arm A, the baseline: the rollback preview. Apply the change, read the
-- answer; pb-run --rollback wraps this in BEGIN ... ROLLBACK, all timed.
UPDATE price SET p = p * 1.1 WHERE cat = 7;
SELECT sum(p) FROM price;
