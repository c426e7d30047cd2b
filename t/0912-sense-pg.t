#!/bin/sh
# pb-sense --pg against a throwaway cluster: no password reaches its
# output or its --raw files, whatever its spelling, with --pg given twice
# (trust authentication: the server ignores the passwords).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg.sh"
pg_start

run pb-sense --delays 0,1us --runs 2 --pairs 2 --warmup 0 --resamples 20 --quiet --raw "$T/raw" \
	--pg "password=secretA dbname=postgres" \
	--pg "postgresql://postgres:secretB@/postgres?password=secretC&application_name=pbsense" \
	--sql-a 'select 1'
is "$rc $(rows "$T/out" | wc -l | tr -d ' ')" "0 2" "pb-sense --pg, given twice: exit 0, a row per delay"
is "$(grep '^# pb-sense: ' "$T/out" | sed 's/.* --quiet //')" \
	"--pg dbname=postgres --pg 'postgresql://postgres@/postgres?application_name=pbsense' --sql-a 'select 1'" \
	"the provenance line: both conninfos without their passwords"
is "$(cat "$T/out" "$T/raw"/raw-*.tsv | grep -c secret):$(ls "$T/raw" | tr '\n' ' ')" "0:raw-0.tsv raw-1000.tsv " \
	"no password in the output or in the --raw files"
is "$(grep -h '^# pb-run: ' "$T/raw"/raw-*.tsv | grep -c -- '--pg.*--pg'):$(grep -h '^# pb-run: ' "$T/raw"/raw-*.tsv | grep -c -- '--pg')" 0:2 \
	"pb-run got the conninfo once, the one it uses"
like "$(grep -h '^# conninfo: ' "$T/raw/raw-0.tsv")" "application_name='pbsense'" "... the last --pg"

done_testing
