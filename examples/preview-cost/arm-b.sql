-- Arm B, the candidate: the same answer, read-only, nothing to undo.
SELECT sum(CASE WHEN cat = 7 THEN p * 1.1 ELSE p END) FROM price;
