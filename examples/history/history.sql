-- examples/history/history.sql: one comparison across commits, in commit
-- order (committer date, then load time): the A/B time ratio and its
-- interval over runs, the verdict (against pb-tint's --threshold, or
-- against 1 without one), and the change from the commit before: a
-- regression when the interval lies wholly below the previous one's.
--
-- usage: psql -v comparison=NAME -f history.sql
\set ON_ERROR_STOP 1
\if :{?comparison}
\else
do $$ begin raise exception 'history.sql: which comparison? psql -v comparison=NAME -f history.sql'; end $$;
\endif
select seq as "#", left(commit, 12) as commit,
	to_char(commit_time at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as committed,
	runs, round(ratio::numeric, 4) as ratio, round(ratio_lo::numeric, 4) as ratio_lo,
	round(ratio_hi::numeric, 4) as ratio_hi, verdict, change
from history
where comparison = :'comparison'
order by seq;

\echo 'regressions: the commits whose interval lies wholly below the commit before''s'
select left(commit, 12) as commit, left(prev_commit, 12) as after,
	round(ratio_lo::numeric, 4) || ' to ' || round(ratio_hi::numeric, 4) as interval,
	round(prev_ratio_lo::numeric, 4) || ' to ' || round(prev_ratio_hi::numeric, 4) as before
from regressions
where comparison = :'comparison'
order by commit_order;
