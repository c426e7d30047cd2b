-- examples/history/schema.sql: a history of pb studies across commits.
-- Run once on an empty database (psql -f schema.sql); load.sh fills it.
--
-- What a study is here: one comparison (a name the user gives, such as
-- "parser") measured at one commit of the code under test. Its evidence
-- is one or several raw streams: one pb-run, or the shards of one study
-- that pb-pair merges. Each pb-run invocation draws a random identity,
-- the head's "# study:" (16 hex digits), repeated in every "# run:"
-- comment; a row of shards is one such invocation. So the study's
-- identity is the set of its shards' ids: a shard is in the history at
-- most once (shards.id is the primary key), and the loader refuses a
-- study any of whose shards is already loaded, naming it. A comparison
-- also has at most one study per commit (unique below): to measure a
-- commit again, delete its study first (see README.md).
--
-- The direction is pb's (pb(7)): A is the baseline, B the candidate (the
-- code at this commit); ratio = A/B time, above 1 when B took less time.
-- Ratios from different commits compare only when A is the same at every
-- commit (a fixed baseline build, say).

create table studies (
	id bigint generated always as identity primary key,
	comparison text not null check (comparison <> ''),
	commit text not null check (commit <> ''),
	commit_time timestamptz,          -- the commit's committer date, when known
	loaded_at timestamptz not null default now(),
	-- the design, which every shard shares (pb-pair refuses shards that
	-- differ in it); names as pb-run writes them (pb-run(1) Metadata)
	mode text not null,               -- command, worker or pg
	worker text,
	cmd_a text,
	cmd_b text,
	shell text,
	sql_a text,
	sql_b text,
	rollback text,
	setup_sql text,
	design text,                      -- "A/A: ..." in an A/A study
	pairs bigint,
	warmup bigint,
	arm_order text,                   -- pb-run's "order": random, alternate, blocked
	delay_ns bigint,
	delay_arm text,
	timeout_ns bigint,
	pb_version text,
	unique (comparison, commit)
);

-- One pb-run invocation (one shard) of a study.
create table shards (
	id text primary key check (id ~ '^[0-9a-f]{16}$'),  -- its "# study:"
	study bigint not null references studies on delete cascade,
	pb_run text not null,             -- the "# pb-run:" line: version and arguments
	runs bigint,
	first_run bigint,
	seed bigint,
	host text,
	kernel text,
	cpu text,
	conninfo text,
	server_version text,
	start timestamptz
);

-- Every "# key: value" of each shard's head, as pb-run wrote it (the
-- value unescaped): what the columns above leave out is here.
create table metadata (
	shard text not null references shards on delete cascade,
	key text not null,
	value text not null,
	primary key (shard, key)
);

-- One row per run (the "# run:" comments), with its by-run statistics
-- (pb-pair --by-run: the median of each arm by default) when loaded.
create table runs (
	study bigint not null references studies on delete cascade,
	run bigint not null,
	shard text not null references shards on delete cascade,
	start timestamptz not null,
	pid bigint,
	host text,
	n bigint,
	a double precision,
	b double precision,
	d double precision,
	delay double precision,
	lr double precision generated always as (ln(a / b)) stored,
	primary key (study, run)
);

-- Every measured pair (pb-pair): a and b in ns, d = b - a.
create table pairs (
	study bigint not null,
	run bigint not null,
	pair bigint not null,
	first text not null,
	a bigint not null,
	b bigint not null,
	d bigint not null,
	delay bigint not null,
	primary key (study, run, pair),
	foreign key (study, run) references runs on delete cascade
);

-- The interval over runs (pb-tint of the by-run log ratios), and its
-- sentence.
create table findings (
	study bigint primary key references studies on delete cascade,
	n bigint not null,
	mean double precision not null,
	sd double precision,
	se double precision,
	df double precision,
	t double precision,
	lo double precision,
	hi double precision,
	ratio double precision not null,
	ratio_lo double precision,
	ratio_hi double precision,
	reduction double precision,
	verdict text,                     -- pb-tint's, with --threshold
	threshold double precision,
	level double precision,
	finding text                      -- the "# finding:" sentence
);

-- The history: each comparison's studies in commit order (committer
-- date, then load time), with the interval's verdict against the
-- threshold (or against 1 without one) and what changed from the
-- commit before: a regression when this interval lies wholly below the
-- previous one (B got slower), an improvement when wholly above.
create view history as
select h.*,
	case when h.ratio_hi < h.prev_ratio_lo then 'regression'
	     when h.ratio_lo > h.prev_ratio_hi then 'improvement'
	     else '' end as change
from (
	select s.comparison, s.id as study, s.commit, s.commit_time, s.loaded_at,
		row_number() over w as seq,
		f.n as runs, f.ratio, f.ratio_lo, f.ratio_hi, f.reduction, f.level,
		case when f.verdict is not null
		     then f.verdict || ' ' || coalesce(f.threshold::text, '?')
		     when f.ratio_lo > 1 then 'above 1'
		     when f.ratio_hi < 1 then 'below 1'
		     else 'crosses 1' end as verdict,
		lag(s.commit) over w as prev_commit,
		lag(f.ratio_lo) over w as prev_ratio_lo,
		lag(f.ratio_hi) over w as prev_ratio_hi
	from studies s join findings f on f.study = s.id
	window w as (partition by s.comparison
		order by s.commit_time asc nulls last, s.loaded_at, s.id)
) h;

-- The commits whose interval lies wholly below the previous commit's.
create view regressions as
select comparison, seq as commit_order, commit, prev_commit, ratio, ratio_lo,
	ratio_hi, prev_ratio_lo, prev_ratio_hi
from history where change = 'regression';
