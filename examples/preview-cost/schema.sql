-- examples/preview-cost: the table both arms read. 20 000 prices in 20
-- categories (1 000 each), generated without random(), so every cluster
-- gets the same data. p is numeric without a scale: p * 1.1 is stored
-- exactly, and both arms compute the same sum to the last digit.
SET client_min_messages TO warning;
DROP TABLE IF EXISTS price;
CREATE TABLE price (
	id  int PRIMARY KEY,
	cat int NOT NULL,
	p   numeric NOT NULL
) WITH (fillfactor = 50);
INSERT INTO price (id, cat, p)
SELECT g, g % 20, ((g::bigint * 7919) % 99991 + 100) / 100.0
FROM generate_series(1, 20000) AS g;
VACUUM ANALYZE price;
