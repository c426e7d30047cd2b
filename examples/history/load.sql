-- examples/history/load.sql: one study into the history. load.sh runs it
-- on psql's standard input, in the staging directory stage.awk filled,
-- with the variables comparison, commit and commit_time (empty: unknown).
-- One transaction: all of it or nothing (psql stops at the first error,
-- and the open transaction dies with the connection). Nothing read from a
-- stream becomes SQL text: the streams arrive through \copy, the user's
-- values through :'var', which psql quotes as literals.
\set ON_ERROR_STOP 1
\set VERBOSITY terse
set client_min_messages = warning;
begin;

create temp table stage_param (comparison text, commit text, commit_time timestamptz);
insert into stage_param values (:'comparison', :'commit', nullif(:'commit_time', '')::timestamptz);

create temp table stage_file (file text, kind text, ord int);
create temp table stage_meta (file text, kind text, lineno bigint, head boolean,
	block int, key text, value text);
create temp table stage_run (file text, kind text, lineno bigint, run text,
	start text, pid text, study text, host text);
create temp table stage_pairs (file text, lineno bigint, run text, pair text,
	first text, a text, b text, d text, delay text);
create temp table stage_byrun (file text, lineno bigint, run text, n text,
	a text, b text, d text, delay text);
create temp table stage_finding (file text, lineno bigint, n text, mean text,
	sd text, se text, df text, t text, lo text, hi text, ratio text,
	ratio_lo text, ratio_hi text, reduction text, verdict text);
\copy stage_file from 'files.tsv'
\copy stage_meta from 'meta.tsv'
\copy stage_run from 'runs.tsv'
\copy stage_pairs from 'rows-pairs.tsv'
\copy stage_byrun from 'rows-byrun.tsv'
\copy stage_finding from 'rows-finding.tsv'

-- The source of the study's description: the heads of the raw streams;
-- without them, the by-run stream's or the finding's (which carry the
-- heads of every shard ahead of their own header), else the pair
-- stream's (whose head holds only the first shard's).
create temp table stage_source as
select kind from stage_file
order by array_position(array['raw', 'byrun', 'finding', 'pairs'], kind) limit 1;

-- The pb-run blocks of the source's heads: one per shard.
create temp table stage_block as
select m.file, m.block,
	max(m.value) filter (where m.key = 'study') as id,
	min(m.lineno) as lineno
from stage_meta m join stage_source s using (kind)
where m.head and m.block > 0
group by m.file, m.block;

-- The words a number may have in a stream (pb(7) NUMBERS).
create temp table stage_num (pat text);
insert into stage_num values ('^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$');

do $check$
declare
	p stage_param;
	r record;
	src text := (select kind from stage_source);
	num text := (select pat from stage_num);
begin
	select * into p from stage_param;
	if to_regclass('studies') is null or to_regclass('shards') is null then
		raise exception 'no history in this database: load schema.sql first (psql -f schema.sql)';
	end if;
	if src is null then
		raise exception 'no stream to load';
	end if;
	if not exists (select from stage_block) then
		raise exception '%: no "# pb-run:" head: not the output of pb-run or of the pb tools after it',
			(select string_agg(file, ', ') from stage_file where kind = src);
	end if;
	for r in select * from stage_block where id is null or id !~ '^[0-9a-f]{16}$' loop
		raise exception '%:%: the pb-run head has no "# study:" identity of 16 hex digits (written by a pb-run older than study identities: measure again)',
			r.file, r.lineno;
	end loop;
	for r in select id, string_agg(file, ' and ') as files from stage_block
			group by id having count(*) > 1 loop
		raise exception 'study % is given twice (%): the same shard twice?', r.id, r.files;
	end loop;
	-- what the shards of one study share: pb-pair's list, and the shell
	for r in select k.key from unnest(array['mode', 'worker', 'cmd_a', 'cmd_b', 'shell',
			'sql_a', 'sql_b', 'rollback', 'setup_sql', 'order', 'pairs', 'warmup',
			'delay_ns', 'delay_arm']) as k(key)
			cross join stage_block b
			left join stage_meta m on m.file = b.file and m.block = b.block
				and m.key = k.key and m.head
				and m.kind = (select kind from stage_source)
			group by k.key
			having count(distinct m.value) > 1 or count(m.value) not in (0, count(*)) loop
		raise exception 'the shards disagree on "%": they are not one study', r.key;
	end loop;
	if exists (select from stage_block b where not exists (select from stage_meta m
			where m.file = b.file and m.block = b.block and m.key = 'mode' and m.head)) then
		raise exception 'a pb-run head has no "# mode:"';
	end if;

	-- the runs: every "# run:" comment of the source, of a shard it has
	for r in select * from stage_run where kind = src
			and (run is null or run !~ '^[0-9]+$' or study is null
			     or start is null or (pid is not null and pid !~ '^[0-9]+$')) loop
		raise exception '%:%: a "# run:" comment without a run number, start=, pid= or study= (written by a pb-run older than study identities?)',
			r.file, r.lineno;
	end loop;
	for r in select * from stage_run where kind = src
			and study not in (select id from stage_block) loop
		raise exception '%:%: run % belongs to study %, whose head is not in %',
			r.file, r.lineno, r.run, r.study, r.file;
	end loop;
	for r in select run, string_agg(file || ':' || lineno, ' and ') as at from stage_run
			where kind = src group by run having count(*) > 1 loop
		raise exception 'run % appears twice (%)', r.run, r.at;
	end loop;
	if not exists (select from stage_run where kind = src) then
		raise exception '%: no "# run:" comment: no run to load',
			(select string_agg(file, ', ') from stage_file where kind = src);
	end if;
	-- every other file holds the same runs of the same shards
	for r in select f.file from stage_file f where f.kind <> src and exists (
			(select run, study from stage_run where kind = src
			 except select run, study from stage_run where file = f.file)
			union all
			(select run, study from stage_run where file = f.file
			 except select run, study from stage_run where kind = src)) loop
		raise exception '%: not the runs of %: a file of another study?', r.file,
			(select string_agg(file, ', ') from stage_file where kind = src);
	end loop;

	-- the rows: numbers where numbers belong, runs the study has
	for r in select file, lineno from stage_pairs
			where run !~ num or pair !~ num or a !~ num or b !~ num or d !~ num
			   or delay !~ num or first is null
			union all select file, lineno from stage_byrun
			where run !~ num or n !~ num or a !~ num or b !~ num or d !~ num or delay !~ num
			union all select file, lineno from stage_finding
			where n !~ num or mean !~ num or sd !~ num or se !~ num or df !~ num
			   or t !~ num or lo !~ num or hi !~ num or ratio !~ num or ratio_lo !~ num
			   or ratio_hi !~ num or reduction !~ num loop
		raise exception '%:%: a field that should be a number is not', r.file, r.lineno;
	end loop;
	for r in select file, lineno, run from stage_pairs
			where run not in (select run from stage_run where kind = src)
			union all select file, lineno, run from stage_byrun
			where run not in (select run from stage_run where kind = src) loop
		raise exception '%:%: run % has no "# run:" comment', r.file, r.lineno, r.run;
	end loop;
	for r in select file, count(*) as n from stage_finding group by file having count(*) <> 1 loop
		raise exception '%: % intervals; the history keeps one, over all runs', r.file, r.n;
	end loop;

	-- the identity: a shard once in the history, a commit once per comparison
	for r in select b.id, s.comparison, s.commit, s.loaded_at from stage_block b
			join shards h on h.id = b.id join studies s on s.id = h.study loop
		raise exception 'study % is already in the history (comparison "%", commit %, loaded %): nothing loaded',
			r.id, r.comparison, r.commit, date_trunc('second', r.loaded_at);
	end loop;
	for r in select s.loaded_at from studies s
			where s.comparison = p.comparison and s.commit = p.commit loop
		raise exception 'comparison "%" already has a study at commit % (loaded %): delete it to measure that commit again (see README.md)',
			p.comparison, p.commit, date_trunc('second', r.loaded_at);
	end loop;
end
$check$;

-- The metadata of each shard: key -> value.
create temp table stage_shard as
select b.id, b.file, b.block,
	(select min(r.run::bigint) from stage_run r join stage_source s using (kind)
	 where r.study = b.id) as first_seen,
	jsonb_object_agg(m.key, m.value) as meta
from stage_block b
join stage_meta m on m.file = b.file and m.block = b.block and m.head
join stage_source s on s.kind = m.kind
where m.key <> 'run'
group by b.id, b.file, b.block;

with first_shard as (select meta from stage_shard order by first_seen nulls last, file, block limit 1)
insert into studies (comparison, commit, commit_time, mode, worker, cmd_a, cmd_b,
	shell, sql_a, sql_b, rollback, setup_sql, design, pairs, warmup, arm_order,
	delay_ns, delay_arm, timeout_ns, pb_version)
select p.comparison, p.commit, p.commit_time, m->>'mode', m->>'worker',
	m->>'cmd_a', m->>'cmd_b', m->>'shell', m->>'sql_a', m->>'sql_b',
	m->>'rollback', m->>'setup_sql', m->>'design', (m->>'pairs')::bigint,
	(m->>'warmup')::bigint, m->>'order', (m->>'delay_ns')::bigint,
	m->>'delay_arm', (m->>'timeout_ns')::bigint,
	substring(m->>'pb-run' from '^[^ ]*')
from stage_param p, (select meta as m from first_shard) f;

create temp table stage_study as select currval(pg_get_serial_sequence('studies', 'id')) as id;

insert into shards (id, study, pb_run, runs, first_run, seed, host, kernel, cpu,
	conninfo, server_version, start)
select s.id, (select id from stage_study), s.meta->>'pb-run',
	(s.meta->>'runs')::bigint, (s.meta->>'first_run')::bigint,
	(s.meta->>'seed')::bigint, s.meta->>'host', s.meta->>'kernel',
	s.meta->>'cpu', s.meta->>'conninfo', s.meta->>'server_version',
	(s.meta->>'start')::timestamptz
from stage_shard s;

insert into metadata (shard, key, value)
select s.id, e.key, e.value from stage_shard s, jsonb_each_text(s.meta) e;

insert into runs (study, run, shard, start, pid, host, n, a, b, d, delay)
select (select id from stage_study), r.run::bigint, r.study, r.start::timestamptz,
	r.pid::bigint, r.host, y.n::bigint, y.a::float8, y.b::float8, y.d::float8,
	y.delay::float8
from stage_run r join stage_source s using (kind)
left join stage_byrun y on y.run = r.run;

insert into pairs (study, run, pair, first, a, b, d, delay)
select (select id from stage_study), run::bigint, pair::bigint, first,
	a::bigint, b::bigint, d::bigint, delay::bigint
from stage_pairs;

-- pb-tint's own keys: of its last invocation in the finding's head
insert into findings (study, n, mean, sd, se, df, t, lo, hi, ratio, ratio_lo,
	ratio_hi, reduction, verdict, threshold, level, finding)
select (select id from stage_study), f.n::bigint, f.mean::float8, f.sd::float8,
	f.se::float8, f.df::float8, f.t::float8, f.lo::float8, f.hi::float8,
	f.ratio::float8, f.ratio_lo::float8, f.ratio_hi::float8, f.reduction::float8,
	f.verdict,
	(select substring(value from '^[^ ]*')::float8 from stage_meta
	 where kind = 'finding' and head and key = 'pb-tint.threshold'
	 order by lineno desc limit 1),
	(select substring(value from '^[^ ]*')::float8 from stage_meta
	 where kind = 'finding' and head and key = 'pb-tint.level'
	 order by lineno desc limit 1),
	(select value from stage_meta where kind = 'finding' and key = 'finding'
	 order by lineno desc limit 1)
from stage_finding f;

-- What was loaded, one line for load.sh to print.
\pset tuples_only on
\pset format unaligned
select format('study %s: comparison %s at commit %s: %s shard(s), %s runs, %s pairs%s',
	s.id, s.comparison, s.commit,
	(select count(*) from shards where study = s.id),
	(select count(*) from runs where study = s.id),
	(select count(*) from pairs where study = s.id),
	coalesce((select format('; ratio %s, %s%% interval %s to %s', round(f.ratio::numeric, 4),
		trim_scale(100 * f.level::numeric), round(f.ratio_lo::numeric, 4),
		round(f.ratio_hi::numeric, 4)) from findings f where f.study = s.id), ''))
from studies s where s.id = (select id from stage_study);
commit;
