#!/bin/sh
# The catalogue of bad inputs, every tool: one table line per case,
#   tool | args | fixture | status | stdout | message | what
# Each case must exit with the status given (1 bad data, 2 usage), write
# exactly one line to stderr, "pb-TOOL: " then the message (an ERE; one
# that starts with '^' is the whole line, for a message another tool
# writes), write nothing valid-looking where nothing valid can be written,
# and neither crash (status >= 128) nor hang (timeout). stdout: none =
# empty, head = no data rows (comments and a header at most), some = the
# rows before the fault may be there (streaming tools). fixture: a file
# appended to args, '<FILE' for stdin, '-' for none. args are shell words
# ('-' for none). A case whose what starts with TODO is a known fault,
# reported as a TAP TODO; NOVALGRIND, one skipped under make valgrind
# (PB_VALGRIND=1): there glibc's posix_spawn runs as a plain fork and
# cannot report a failed exec, which becomes status 127. Small fixtures
# are data/catalogue/; big and binary ones are made below.
. "$(dirname "$0")/lib.sh"
cp "$D"/catalogue/* "$T"/ && cd "$T" || exit 1

# --- fixtures made at run time
raw_head() { grep -v '^[0-9]' raw.tsv; }
pair_head() { grep -v '^[0-9]' pairs.tsv; }
# bytes N: N bytes of deterministic garbage, every value but NUL
bytes() { LC_ALL=C awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) {
	c = (i * 131 + 7) % 256; printf "%c", c ? c : 1 } }'; }
nul() { printf '@' | tr '@' '\000'; }
xs() { head -c "$1" /dev/zero | tr '\000' x; }   # a run of N x's
big=$((16 * 1024 * 1024 + 1))
{ raw_head; grep '^1	1	' raw.tsv; printf '1\t2\tmeasure\tB\t1\t0\t'; xs $big; echo; } >raw-huge.tsv
{ pair_head; grep '^1	' pairs.tsv; printf '# '; xs $big; echo; grep '^2	' pairs.tsv; } >pairs-huge-comment.tsv
{ raw_head; grep '^1	1	' raw.tsv; printf '1\t2\tmeasure\tB\t1\t0\t9'; nul; printf '50\t0\n'; } >raw-nul.tsv
{ pair_head; grep '^1	' pairs.tsv; printf '2\t1\tB\t1100\t1000\t-100\t0\t0.09'; nul; echo; } >pairs-nul.tsv
bytes 65536 >garbage.bin
{ raw_head; grep '^1	1	' raw.tsv; bytes 4096; } >raw-garbage.tsv
{ pair_head; grep '^1	' pairs.tsv; bytes 4096; } >pairs-garbage.tsv

# a guard against a tool that hangs, not a bound on how fast it refuses:
# as long under a loaded machine or memcheck (20-50 times slower) as
# anywhere, and each case ends when its tool does
tmo=300
gnuplot=$(command -v gnuplot)

# The table, TAB-separated and trimmed, '-' for an empty field.
awk -F' [|] ' -v OFS='\t' '/^#/ || NF == 0 { next }
	{ for (i = 1; i <= NF; i++) { gsub(/^ +| +$/, "", $i); if ($i == "") $i = "-" }
	  if (NF != 7) { print "bad table line " NR ": " $0 > "/dev/stderr"; exit 1 }
	  print }' >"$T/cases" <<'EOF' || exit 1
# tool      | args                                 | fixture            | st | stdout | message | what
# --- pb-run
pb-run      | --runs 0 -- true                     | -                  | 2 | none | --runs wants a whole number from 1 to [0-9]+, not '0' \(see pb-run --help\)$ | zero runs
pb-run      | --runs x -- true                     | -                  | 2 | none | --runs wants a whole number .*not 'x' | runs not a number
pb-run      | --pairs -1 -- true                   | -                  | 2 | none | --pairs wants a whole number .*not '-1' | negative pairs
pb-run      | --warmup 1.5 -- true                 | -                  | 2 | none | --warmup wants a whole number from 0 .*not '1.5' | fractional warm-up
pb-run      | --order sorted -- true               | -                  | 2 | none | --order is random, alternate or blocked, not 'sorted' | unknown order
pb-run      | --delay 5xs -- true                  | -                  | 2 | none | --delay wants a duration .*not '5xs' | bad duration unit
pb-run      | --delay -5us -- true                 | -                  | 2 | none | --delay wants a duration .*not '-5us' | negative delay
pb-run      | --delay nan -- true                  | -                  | 2 | none | --delay wants a duration .*not 'nan' | NaN delay
pb-run      | --delay-arm C -- true                | -                  | 2 | none | --delay-arm 'C': there is no arm C; the study has arms A and B | a delay arm the study lacks
pb-run      | --seed 1.5 -- true                   | -                  | 2 | none | --seed wants a whole number from 0 to 2\^53, not '1.5' | fractional seed
pb-run      | --seed 9007199254740993 -- true      | -                  | 2 | none | --seed wants a whole number from 0 to 2\^53 | seed beyond 2^53
pb-run      | --first-run 0 -- true                | -                  | 2 | none | --first-run wants a whole number from 1 | first run 0
pb-run      | --first-run 100000000 --runs 2 -- true | -                | 2 | none | --first-run \+ --runs is beyond | run numbers overflow
pb-run      | --timeout 0 -- true                  | -                  | 2 | none | --timeout must be more than 0 | zero timeout
pb-run      | --runs 2                             | -                  | 2 | none | no command: give -- CMD_A \[CMD_B \.\.\.\] | no command
pb-run      | -- 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 | - | 2 | none | at most 26 commands \(arms A to Z\) | 27 commands
pb-run      | -- ''                                | -                  | 2 | none | empty command | empty command
pb-run      | --worker cat -- true                 | -                  | 2 | none | choose one of: commands after --, --worker, --pg | worker and commands
pb-run      | --rollback -- true                   | -                  | 2 | none | --sql-a, --sql-b, --sql, --rollback and --setup-sql need --pg | SQL option without --pg
pb-run      | --pg ''                              | -                  | 2 | none | --pg needs --sql-a SQL | --pg without SQL
pb-run      | --runs                               | -                  | 2 | none | option '--runs' needs a value | option without its value
pb-run      | --quiet=yes -- true                  | -                  | 2 | none | option '--quiet' takes no value | flag given a value
pb-run      | --bogus -- true                      | -                  | 2 | none | unknown option '--bogus' | unknown long option
pb-run      | --runs 1 --delay 5 us -- true        | -                  | 2 | none | unexpected 'us': commands go after -- | a stray word before --
pb-run      | --runs 2 true                        | -                  | 2 | none | unexpected 'true': commands go after -- | a command without --
pb-run      | -Z -- true                           | -                  | 2 | none | unknown option '-Z' | unknown short option
pb-run      | --until tolerance -- true            | -                  | 2 | none | --until tolerance needs --tolerance PCT \(a margin in %, such as 2\) | the tolerance rule without a margin
pb-run      | --tolerance 2 -- true                | -                  | 2 | none | --tolerance goes with --until \(a study that stops when answered\) | a margin without the rule
pb-run      | --until threshold --threshold 1.1 --tolerance 2 -- true | - | 2 | none | --tolerance goes with --until tolerance | a margin beside another rule
pb-run      | --until tolerance --tolerance 100 -- true | -             | 2 | none | --tolerance is a percentage above 0 and below 100, such as 2 for 2 %, not '100' | a margin of 100 %
pb-run      | --until tolerance --tolerance 1e999 -- true | -           | 2 | none | --tolerance is a percentage above 0 and below 100, .*not '1e999' | a margin that overflows
pb-run      | --until tolerance --tolerance %2 -- true | -              | 2 | none | --tolerance is a percentage .*not '%2' | the sign before the number
pb-run      | --until tolerance --tolerance 0x10 -- true | -            | 2 | none | --tolerance is a percentage .*not '0x10' | a hex margin
pb-run      | --until tolerance --tolerance ' 2' -- true | -            | 2 | none | --tolerance is a percentage .*not ' 2' | a space before the margin
pb-run      | --quiet --runs 2 --pairs 2 --warmup 0 -- false | -        | 1 | head | run 1 pair 1 \(measure\) arm [AB]: command exited with status 1 \(its output went to /dev/null; --output inherit shows it\)$ | a failing command
pb-run      | --quiet --order alternate --runs 1 --pairs 2 --warmup 0 -- true 'exit 3' | - | 1 | head | run 1 pair 1 \(measure\) arm B: command exited with status 3 \(its output went to /dev/null; --output inherit shows it\)$ | a failing B
pb-run      | --quiet --runs 1 --pairs 2 --warmup 0 --no-shell -- ./no-such-command | - | 1 | head | run 1 pair 1 \(measure\) arm [AB]: cannot start './no-such-command': No such file or directory$ | NOVALGRIND: a command that does not exist
pb-run      | --quiet --order alternate --runs 1 --pairs 2 --warmup 0 --worker 'read x; echo bogus' | - | 1 | head | run 1 pair 1 \(measure\) arm A: worker answered neither ok nor error: 'bogus'$ | worker garbage
pb-run      | --quiet --order alternate --runs 1 --pairs 2 --warmup 0 --worker 'read x' | - | 1 | head | run 1 pair 1 \(measure\) arm A: worker died | worker exits without an answer
pb-run      | --quiet --runs 1 --pairs 2 --warmup 0 --setup false -- true | - | 1 | head | run 1 \(setup\): --setup hook failed with status 1 | failing setup hook
pb-run      | --quiet --runs 1 --pairs 2 --output no-dir/f -- true | -  | 1 | none | no-dir/f: No such file or directory$ | unwritable --output
pb-run      | --del 5 -- true                      | -                  | 2 | none | option '--del' is ambiguous \(--delay, --delay-arm\) \(see pb-run --help\)$ | an ambiguous option prefix
pb-run      | --length 1 -- true                   | -                  | 2 | none | unknown option '--length' | an unknown option is not ambiguous
# --- pb-pair
pb-pair     | -                                    | raw-no-ns.tsv      | 1 | none | raw-no-ns.tsv: no column 'ns' \(columns: run pair phase arm pos delay_ns time status\)$ | missing column
pb-pair     | -                                    | raw-ns-word.tsv    | 1 | some | raw-ns-word.tsv:4: column 'ns': time must be a whole number of ns > 0, got 'fast'$ | time not a number
pb-pair     | -                                    | raw-ns-nan.tsv     | 1 | some | raw-ns-nan.tsv:6: column 'ns': .* got 'NaN'$ | NaN time
pb-pair     | -                                    | raw-ns-inf.tsv     | 1 | head | raw-ns-inf.tsv:4: column 'ns': .* got 'inf'$ | Inf time
pb-pair     | -                                    | raw-ns-neg.tsv     | 1 | some | raw-ns-neg.tsv:5: column 'ns': .* got '-950'$ | negative time
pb-pair     | -                                    | raw-ns-zero.tsv    | 1 | some | raw-ns-zero.tsv:5: column 'ns': .* got '0'$ | zero time
pb-pair     | --by-run                             | raw-ns-zero.tsv    | 1 | none | raw-ns-zero.tsv:5: column 'ns': .* got '0'$ | zero time, --by-run
pb-pair     | -                                    | raw-ns-frac.tsv    | 1 | some | raw-ns-frac.tsv:5: column 'ns': .* got '950.5'$ | fractional ns
pb-pair     | -                                    | raw-ns-hex.tsv     | 1 | some | raw-ns-hex.tsv:5: column 'ns': .* got '0x3b6'$ | hex time
pb-pair     | -                                    | raw-crlf.tsv       | 1 | none | raw-crlf.tsv:1: CR before end of line | CRLF line ends
pb-pair     | -                                    | empty.tsv          | 1 | none | empty.tsv: empty input: no header line$ | empty file
pb-pair     | -                                    | comments-only.tsv  | 1 | none | comments-only.tsv: empty input: no header line$ | comments only
pb-pair     | -                                    | <empty.tsv         | 1 | none | stdin: empty input: no header line$ | empty stdin
pb-pair     | -                                    | raw-header-only.tsv | 1 | head | raw-header-only.tsv:2: no data rows after the header$ | header only
pb-pair     | -                                    | raw-unmatched.tsv  | 1 | some | raw-unmatched.tsv:5: run 1 pair 2: arm B has no arm A$ | unmatched pair
pb-pair     | -                                    | raw-dup-pair.tsv   | 1 | some | raw-dup-pair.tsv:5: run 1 pair 1: the pair appears twice$ | duplicate pair
pb-pair     | -                                    | raw-arm.tsv        | 1 | some | raw-arm.tsv:5: column 'arm': unknown arm 'C' \(A or B\)$ | unknown arm
pb-pair     | -                                    | raw-phase.tsv      | 1 | some | raw-phase.tsv:5: column 'phase': unknown phase 'cooldown' | unknown phase
pb-pair     | -                                    | raw-short.tsv      | 1 | some | raw-short.tsv:5: 7 fields, header has 8$ | short row
pb-pair     | -                                    | raw-long.tsv       | 1 | some | raw-long.tsv:6: 9 fields, header has 8$ | long row
pb-pair     | -                                    | raw-bad-name.tsv   | 1 | none | raw-bad-name.tsv:2: bad column name 'Run' in header | bad header name
pb-pair     | -                                    | raw-dup-name.tsv   | 1 | none | raw-dup-name.tsv:2: column 'pos' twice in header$ | duplicate header name
pb-pair     | raw.tsv                              | raw-other-header.tsv | 1 | some | raw-other-header.tsv:2: header differs from raw.tsv's \(column 8: 'exit_status' vs 'status'\)$ | headers differ across files
pb-pair     | raw.tsv                              | raw.tsv            | 1 | some | raw.tsv:3: run 1 is also in raw.tsv | the same runs in two shards
pb-pair     | -                                    | no-such.tsv        | 1 | none | no-such.tsv: No such file or directory$ | missing file
pb-pair     | -                                    | raw-huge.tsv       | 1 | some | raw-huge.tsv:5: line longer than 16777216 bytes$ | a line over 16 MiB
pb-pair     | -                                    | raw-nul.tsv        | 1 | some | raw-nul.tsv:5: NUL byte in line | a NUL byte
pb-pair     | -                                    | garbage.bin        | 1 | none | garbage.bin:1: bad column name | binary garbage
pb-pair     | -                                    | raw-garbage.tsv    | 1 | some | raw-garbage.tsv:5: 2 fields, header has 8$ | garbage after the header
pb-pair     | --stat mean                          | raw.tsv            | 2 | none | --stat goes with --by-run | --stat without --by-run
pb-pair     | --by-run --stat mode                 | raw.tsv            | 2 | none | --stat is median, mean, min, lr-median, p90, p99 or qQ \(a quantile such as q0.95\), not 'mode' | unknown statistic
pb-pair     | --exclude 2                          | raw.tsv            | 2 | none | --exclude needs --why TEXT | --exclude without --why
pb-pair     | --exclude 2-1 --why x                | raw.tsv            | 2 | none | --exclude: empty range 2-1 | empty --exclude range
pb-pair     | --exclude x --why x                  | raw.tsv            | 2 | none | --exclude wants run numbers such as 3,5,7-9, not 'x' | --exclude not a number
pb-pair     | --exclude 9 --why x                  | raw.tsv            | 1 | some | --exclude: no run 9 in the input$ | --exclude names no run
pb-pair     | --exclude 1,2 --why x                | raw.tsv            | 1 | head | raw.tsv: no measured pairs left after --exclude$ | --exclude takes every run
pb-pair     | --host                               | raw.tsv            | 1 | head | --host: run 1 has no '# run: 1 ... host=H' comment$ | --host without host comments
pb-pair     | --by-run=1                           | raw.tsv            | 2 | none | option '--by-run' takes no value | flag given a value
pb-pair     | --h                                  | raw.tsv            | 2 | none | option '--h' is ambiguous \(--host, --help\) \(see pb-pair --help\)$ | an ambiguous option prefix
# --- pb-logratio
pb-logratio | -                                    | pairs-a-zero.tsv   | 1 | head | pairs-a-zero.tsv:3: column 'a': time must be > 0, got '0'$ | zero time
pb-logratio | -                                    | pairs-b-neg.tsv    | 1 | some | pairs-b-neg.tsv:4: column 'b': time must be > 0, got '-950'$ | negative time
pb-logratio | -                                    | pairs-a-hex.tsv    | 1 | some | pairs-a-hex.tsv:4: column 'a': not a finite number: '0x1p10'$ | hex float
pb-logratio | -                                    | pairs-b-junk.tsv   | 1 | some | pairs-b-junk.tsv:4: column 'b': not a finite number: '950ms'$ | trailing junk
pb-logratio | -                                    | pairs-no-b.tsv     | 1 | none | pairs-no-b.tsv: no column 'b' \(columns: run pair first a bb d delay\)$ | missing column
pb-logratio | --a zz                               | pairs-nolr.tsv     | 1 | none | pairs-nolr.tsv: no column 'zz' | --a names no column
pb-logratio | -                                    | pairs.tsv          | 1 | none | pairs.tsv: column 'lr' exists already | lr there already
pb-logratio | --name d                             | pairs-nolr.tsv     | 1 | none | pairs-nolr.tsv: column 'd' exists already | --name clashes
pb-logratio | --name Lr                            | pairs-nolr.tsv     | 2 | none | --name | --name must be a column name
pb-logratio | -                                    | raw-crlf.tsv       | 1 | none | raw-crlf.tsv:1: CR before end of line | CRLF line ends
pb-logratio | -                                    | <empty.tsv         | 1 | none | stdin: empty input: no header line$ | empty stdin
pb-logratio | --name lr2                           | pairs-short.tsv    | 1 | some | pairs-short.tsv:10: 7 fields, header has 8$ | short row
pb-logratio | --name lr2                           | pairs-huge-comment.tsv | 1 | some | pairs-huge-comment.tsv:8: line longer than 16777216 bytes$ | a comment over 16 MiB
pb-logratio | --name lr2                           | pairs-nul.tsv      | 1 | some | pairs-nul.tsv:8: NUL byte in line | a NUL byte
pb-logratio | --b                                  | -                  | 2 | none | option '--b' needs a value | option without its value
# --- pb-tint
pb-tint     | -                                    | pairs-lr-nan.tsv   | 1 | none | pairs-lr-nan.tsv:12: column 'lr': not a finite number: 'nan'$ | NaN
pb-tint     | -                                    | pairs-lr-space.tsv | 1 | none | pairs-lr-space.tsv:10: column 'lr': not a finite number: ' 0.1'$ | a space before the number
pb-tint     | --column first                       | pairs.tsv          | 1 | none | pairs.tsv:5: column 'first': not a finite number: 'A'$ | a column of words
pb-tint     | --column d                           | pairs-d-inf.tsv    | 1 | none | pairs-d-inf.tsv:5: column 'd': not a finite number: '-inf'$ | -Inf
pb-tint     | -                                    | pairs-nolr.tsv     | 1 | none | pairs-nolr.tsv: no column 'lr' \(columns: run pair first a b d delay\); did you forget pb-logratio\?$ | missing lr
pb-tint     | --group zz                           | pairs.tsv          | 1 | none | pairs.tsv: no column 'zz' | --group names no column
pb-tint     | --group run,run                      | pairs.tsv          | 2 | none | --group names 'run' twice | a column twice in --group
pb-tint     | --column a --group run               | pairs-lone-pair.tsv | 1 | none | group 2: only 1 value; an interval needs at least 2$ | a group of one
pb-tint     | --level 1.5                          | pairs.tsv          | 2 | none | --level wants a level between 0 and 1 \(such as 0.95\), not '1.5' | level above 1
pb-tint     | --level nan                          | pairs.tsv          | 2 | none | --level wants a number, not 'nan' | NaN level
pb-tint     | --df-cap 0                           | pairs.tsv          | 2 | none | --df-cap wants a whole number from 1 | zero df cap
pb-tint     | --threshold 0                        | pairs.tsv          | 2 | none | --threshold is a ratio A/B .*must be > 0 | zero ratio threshold
pb-tint     | --threshold inf                      | pairs.tsv          | 2 | none | --threshold wants a number, not 'inf' | Inf threshold
pb-tint     | --tolerance 0                        | pairs.tsv          | 2 | none | --tolerance is a percentage above 0 and below 100, such as 2 for 2 %, not '0' | zero margin
pb-tint     | --tolerance 100%                     | pairs.tsv          | 2 | none | --tolerance is a percentage above 0 and below 100, .*not '100%' | a margin of 100 %
pb-tint     | --tolerance inf                      | pairs.tsv          | 2 | none | --tolerance is a percentage .*not 'inf' | Inf margin
pb-tint     | --tolerance 2%%                      | pairs.tsv          | 2 | none | --tolerance is a percentage .*not '2%%' | two percent signs
pb-tint     | --tolerance 2 --threshold 1.1        | pairs.tsv          | 2 | none | --threshold and --tolerance both give the verdict: one or the other | margin and threshold
pb-tint     | --tolerance 2 --column d             | pairs.tsv          | 2 | none | --tolerance is a margin about ratio 1: 'd' is not a log-ratio column | a margin of a column that is no log ratio
pb-tint     | -                                    | pairs-header-only.tsv | 1 | none | pairs-header-only.tsv:4: no data rows after the header$ | header only
pb-tint     | -                                    | empty.tsv          | 1 | none | empty.tsv: empty input: no header line$ | empty file
pb-tint     | -                                    | pairs-cr-row.tsv   | 1 | none | pairs-cr-row.tsv:9: CR before end of line | one CRLF line
pb-tint     | -                                    | pairs-bad-name.tsv | 1 | none | pairs-bad-name.tsv:4: bad column name 'Pair' in header | bad header name
pb-tint     | -                                    | pairs-dup-name.tsv | 1 | none | pairs-dup-name.tsv:4: column 'd' twice in header$ | duplicate header name
pb-tint     | pairs.tsv                            | pairs-nolr.tsv     | 1 | none | pairs-nolr.tsv:2: header differs from pairs.tsv's \(column 8: '' vs 'lr'\)$ | headers differ across files
pb-tint     | -                                    | pairs-huge-comment.tsv | 1 | none | pairs-huge-comment.tsv:8: line longer than 16777216 bytes$ | a comment over 16 MiB
pb-tint     | -                                    | pairs-nul.tsv      | 1 | none | pairs-nul.tsv:8: NUL byte in line | a NUL byte
pb-tint     | -                                    | pairs-garbage.tsv  | 1 | none | pairs-garbage.tsv:8: 2 fields, header has 8$ | garbage after the header
pb-tint     | -                                    | pairs-lr-huge.tsv  | 1 | none | column lr: the interval .* of the log ratio reaches beyond \+-709\.78, where the ratio A/B overflows a double \(is 'lr' a log ratio\?\)$ | lr near 1e29: the ratio would be inf
pb-tint     | --column d                           | pairs-d-huge.tsv   | 1 | none | column d: values too large: their variance overflows a double$ | values near 1e308
pb-tint     | --column d                           | pairs-d-tiny.tsv   | 1 | none | column d: values too close together: their variance underflows a double \(rescale the column\)$ | values 1e-170 apart: the variance would be 0
pb-tint     | --column d --group first             | pairs-hash-first.tsv | 1 | none | pairs-hash-first.tsv:4: column 'first': the value '#B' would begin an output row, and a row that begins with '#' is read as a comment \(pb\(7\)\); put another column first in --group$ | a group value that begins with '#'
pb-tint     | --l                                  | pairs.tsv          | 2 | none | option '--l' is ambiguous \(--level, --log-ratio\) \(see pb-tint --help\)$ | an ambiguous option prefix
pb-tint     | --fi=yes                             | pairs.tsv          | 2 | none | option '--finding' takes no value | a flag's prefix given a value
pb-tint     | --level 0.9999999999999999           | pairs.tsv          | 2 | none | --level 0\.9999999999999999 is too close to 1: the interval would be infinite; the largest level is 0\.9999999999999998 | a level whose quantile is infinite
pb-tint     | --level 0.99999999999999999          | pairs.tsv          | 2 | none | --level 0\.99999999999999999 rounds to 1 as a double | a level that reads back as 1
pb-tint     | --level 1e-17                        | pairs.tsv          | 2 | none | --level 1e-17 is too close to 0 | a level lost in rounding
# --- pb-boot
pb-boot     | -                                    | pairs-d-empty.tsv  | 1 | none | pairs-d-empty.tsv:5: column 'd': not a finite number: ''$ | empty field
pb-boot     | -                                    | pairs-d-overflow.tsv | 1 | none | pairs-d-overflow.tsv:5: column 'd': not a finite number: '1e999'$ | overflow to Inf
pb-boot     | -                                    | pairs-d-word.tsv   | 1 | none | pairs-d-word.tsv:5: column 'd': not a finite number: '--20'$ | two minus signs
pb-boot     | -                                    | raw.tsv            | 1 | none | raw.tsv: no column 'd' \(columns: run pair phase arm pos delay_ns ns status\)$ | missing column
pb-boot     | --block run                          | pairs-one-run.tsv  | 1 | none | column 'd': only 1 block of 'run'; resampling blocks needs at least 2$ | one block
pb-boot     | --block zz                           | pairs.tsv          | 1 | none | pairs.tsv: no column 'zz' | --block names no column
pb-boot     | --group run                          | pairs-lone-pair.tsv | 1 | none | group '2': only 1 value; a bootstrap interval needs at least 2$ | a group of one
pb-boot     | --stat mode                          | pairs.tsv          | 2 | none | --stat is median, mean, p90, p99 or qQ \(a quantile such as q0.95\), not 'mode' | unknown statistic
pb-boot     | --method bc                          | pairs.tsv          | 2 | none | --method is percentile, expanded, bca or expanded-bca, not 'bc' | unknown method
pb-boot     | --ties above                         | pairs.tsv          | 2 | none | --ties is half or below, not 'above' | unknown ties rule
pb-boot     | --stat mean                          | pairs-d-huge.tsv   | 1 | none | column 'd': values as large as 1\.[0-9]e308 overflow the sums of the mean of [0-9]+ values; rescale the column | the mean's sums overflow
pb-boot     | --resamples 0                        | pairs.tsv          | 2 | none | --resamples wants a whole number from 1 | zero resamples
pb-boot     | --resamples 1e3                      | pairs.tsv          | 2 | none | --resamples wants a whole number .*not '1e3' | resamples in e-notation
pb-boot     | --seed -1                            | pairs.tsv          | 2 | none | --seed wants a whole number from 0 to 2\^53, not '-1' | negative seed
pb-boot     | --seed 18446744073709551616          | pairs.tsv          | 2 | none | --seed wants a whole number from 0 to 2\^53 | seed beyond 2^64
pb-boot     | --level 0                            | pairs.tsv          | 2 | none | --level wants a level between 0 and 1 | level 0
pb-boot     | -                                    | pairs-header-only.tsv | 1 | none | pairs-header-only.tsv:4: no data rows after the header$ | header only
pb-boot     | -                                    | pairs-short.tsv    | 1 | none | pairs-short.tsv:10: 7 fields, header has 8$ | short row
pb-boot     | -                                    | garbage.bin        | 1 | none | garbage.bin:1: bad column name | binary garbage
pb-boot     | -                                    | pairs-nul.tsv      | 1 | none | pairs-nul.tsv:8: NUL byte in line | a NUL byte
pb-boot     | --group first                        | pairs-hash-first.tsv | 1 | none | pairs-hash-first.tsv:4: column 'first': the value '#B' would begin an output row, and a row that begins with '#' is read as a comment \(pb\(7\)\); put another column first in --group$ | a group value that begins with '#'
pb-boot     | --s=1                                | pairs.tsv          | 2 | none | option '--s' is ambiguous \(--stat, --seed\) \(see pb-boot --help\)$ | an ambiguous option prefix
pb-boot     | --level 0.9999999999999999           | pairs.tsv          | 2 | none | --level 0\.9999999999999999 is too close to 1 | a level whose quantile is infinite
# --- pb-cross
pb-cross    | -                                    | pairs-one-run.tsv  | 1 | none | pairs-one-run.tsv: only 1 run; comparing across runs needs at least 2$ | one run
pb-cross    | --each --expect +                    | pairs-one-run.tsv  | 1 | none | pairs-one-run.tsv: only 1 run | one run, --each
pb-cross    | -                                    | pairs-no-b.tsv     | 1 | none | pairs-no-b.tsv: no column 'b' | missing column
pb-cross    | -                                    | raw.tsv            | 1 | none | raw.tsv: no column 'a' | a raw stream
pb-cross    | -                                    | pairs-b-junk.tsv   | 1 | none | pairs-b-junk.tsv:4: column 'b': not a finite number: '950ms'$ | trailing junk
pb-cross    | -                                    | pairs-d-inf.tsv    | 1 | none | pairs-d-inf.tsv:5: column 'd': not a finite number: '-inf'$ | -Inf
pb-cross    | -                                    | pairs-delay-signs.tsv | 1 | none | the delay column has both signs; give --expect$ | delays of both signs
pb-cross    | -                                    | pairs-median-zero.tsv | 1 | none | the pooled median paired difference is 0 | no sign to expect
pb-cross    | --expect x                           | pairs.tsv          | 2 | none | --expect is \+, - or auto, not 'x' | unknown sign
pb-cross    | --expect                             | -                  | 2 | none | option '--expect' needs a value | option without its value
pb-cross    | -                                    | pairs-header-only.tsv | 1 | none | pairs-header-only.tsv:4: no data rows after the header$ | header only
pb-cross    | -                                    | pairs-cr-row.tsv   | 1 | none | pairs-cr-row.tsv:9: CR before end of line | one CRLF line
pb-cross    | -                                    | pairs-huge-comment.tsv | 1 | none | pairs-huge-comment.tsv:8: line longer than 16777216 bytes$ | a comment over 16 MiB
pb-cross    | --expect -                           | pairs-cross-overflow.tsv | 1 | none | values too large: a cross-run estimate \(median b - median a\) overflows a double$ | an estimate over the largest double
pb-cross    | --expect +                           | pairs-ab-overflow.tsv | 1 | none | pairs-ab-overflow.tsv:3: values too large: d = b - a overflows a double$ | d = b - a over the largest double
pb-cross    | --each                               | byrun-hash-run.tsv | 1 | none | byrun-hash-run.tsv:4: column 'run': the value '#2' would begin an output row, .*; rename the run$ | --each: a run that begins with '#'
pb-cross    | --e                                  | pairs.tsv          | 2 | none | option '--e' is ambiguous \(--expect, --each\) \(see pb-cross --help\)$ | an ambiguous option prefix
# --- pb-plan
pb-plan     | -                                    | pairs-nolr.tsv     | 1 | none | pairs-nolr.tsv: no column 'lr' | missing column
pb-plan     | --run zz                             | pairs.tsv          | 1 | none | pairs.tsv: no column 'zz' | --run names no column
pb-plan     | -                                    | pairs-lr-nan.tsv   | 1 | none | pairs-lr-nan.tsv:12: column 'lr': not a finite number: 'nan'$ | NaN
pb-plan     | --column d                           | pairs-one-run.tsv  | 1 | none | pairs-one-run.tsv: only 1 run; variance between runs needs at least 2$ | one run
pb-plan     | -                                    | pairs-by-run.tsv   | 1 | none | pairs-by-run.tsv: one row per run | one row per run
pb-plan     | --target 0                           | pairs.tsv          | 2 | none | --target must be more than 0 | zero target
pb-plan     | --target -1                          | pairs.tsv          | 2 | none | --target must be more than 0 | negative target
pb-plan     | --target x                           | pairs.tsv          | 2 | none | --target wants a number, not 'x' | target not a number
pb-plan     | --run-cost 5xs                       | pairs.tsv          | 2 | none | --run-cost wants a duration .*not '5xs' | bad duration
pb-plan     | --pair-cost 0                        | pairs.tsv          | 2 | none | --pair-cost must be more than 0 | zero pair cost
pb-plan     | --max-runs 0                         | pairs.tsv          | 2 | none | --max-runs wants a whole number from 1 | zero max runs
pb-plan     | --level 1                            | pairs.tsv          | 2 | none | --level wants a level between 0 and 1 | level 1
pb-plan     | -                                    | pairs-bad-name.tsv | 1 | none | pairs-bad-name.tsv:4: bad column name 'Pair' in header | bad header name
pb-plan     | -                                    | empty.tsv          | 1 | none | empty.tsv: empty input: no header line$ | empty file
pb-plan     | -                                    | pairs-nul.tsv      | 1 | none | pairs-nul.tsv:8: NUL byte in line | a NUL byte
pb-plan     | -                                    | pairs-garbage.tsv  | 1 | none | pairs-garbage.tsv:8: 2 fields, header has 8$ | garbage after the header
pb-plan     | --column d                           | pairs-d-huge.tsv   | 1 | none | values too large: their variances overflow a double$ | values near 1e308
pb-plan     | --column d                           | pairs-d-tiny.tsv   | 1 | none | values too close together: their variances underflow a double \(rescale the column\)$ | values 1e-170 apart: the variances would be 0
pb-plan     | --column d                           | pairs-ab-huge.tsv  | 1 | none | pairs-ab-huge.tsv:3: values too large: the sum of a \+ b overflows a double$ | a + b over the largest double
pb-plan     | --r x                                | pairs.tsv          | 2 | none | option '--r' is ambiguous \(--run, --run-cost\) \(see pb-plan --help\)$ | an ambiguous option prefix
pb-plan     | --level 0.99999999999999999          | pairs.tsv          | 2 | none | --level 0\.99999999999999999 rounds to 1 as a double | a level that reads back as 1
# --- pb-sense
pb-sense    | -- true                              | -                  | 2 | none | --delays LIST is required | no --delays
pb-sense    | --delays 0,5xs -- true               | -                  | 2 | none | --delays: bad duration '5xs' | bad duration
pb-sense    | --delays 0,,1us -- true              | -                  | 2 | none | --delays: an empty entry in '0,,1us' | empty entry
pb-sense    | --delays , -- true                   | -                  | 2 | none | --delays: empty list | empty list
pb-sense    | --delays '*' -- true                 | -                  | 2 | none | --delays: bad duration '\*' | a glob
pb-sense    | --delays -1us -- true                | -                  | 2 | none | --delays: bad duration '-1us' | negative delay
pb-sense    | --delays 0 --resamples 0 -- true     | -                  | 2 | none | --resamples wants a whole number from 1 | zero resamples
pb-sense    | --delays 0 --level 1.5 -- true       | -                  | 2 | none | --level wants a level between 0 and 1 | level above 1
pb-sense    | --delays 0 --delay 1us -- true       | -                  | 2 | none | pb-sense sets the delay itself | --delay
pb-sense    | --delays 0 -- true false             | -                  | 2 | none | pb-sense runs A/A: give one command after -- | two commands
pb-sense    | --delays 0 --sql-b x -- true         | -                  | 2 | none | pb-sense runs A/A: give --sql-a only | --sql-b
pb-sense    | --delays                             | -                  | 2 | none | option '--delays' needs a value | option without its value
pb-sense    | --delays 0 --runs 0 -- true          | -                  | 2 | none | --runs wants a whole number from 2 to 100000000, not '0' | a pb-run option's bad value, in pb-sense's words
pb-sense    | --delays 0 --bogus -- true           | -                  | 2 | none | ^pb-sense: unknown option '--bogus' | unknown option (pb-sense knows pb-run's options)
pb-sense    | --delays 0 --quiet --runs 2 --pairs 2 --warmup 0 -- false | - | 1 | none | pb-run failed at delay 0 \(status 1\): pb-run: run 1 pair 1 | a failing command: one line, pb-run's folded in
pb-sense    | --delays 0 --quiet --runs 1 --pairs 3 --warmup 0 -- true | - | 2 | none | --runs wants a whole number from 2 | one run: refused before anything runs (the analysis compares runs)
pb-sense    | --delays 0 --quiet --runs 2 --pairs 2 --warmup 0 --ignore-failure -- false | - | 1 | head | the analysis failed at delay 0: pb-pair: .*no measured pairs left$ | an analysis failure: one line, pb-pair's folded in
pb-sense    | --delays 0 --raw empty.tsv/d --runs 2 --pairs 2 -- true | - | 1 | none | empty.tsv/d: cannot create the directory$ | an uncreatable --raw directory
# --- pb-plot
pb-plot     | -                                    | -                  | 2 | none | which picture\? runs, sense, trend, pairs or hosts | no KIND
pb-plot     | graph                                | pairs.tsv          | 2 | none | unknown KIND 'graph' | unknown KIND
pb-plot     | pairs -o x.pdf                       | pairs.tsv          | 2 | none | -o FILE must end in .png or .svg | unknown picture format
pb-plot     | pairs pairs.tsv                      | pairs.tsv          | 2 | none | one FILE at most | two files
pb-plot     | --bogus pairs                        | pairs.tsv          | 2 | none | unknown option '--bogus' | unknown option
pb-plot     | pairs -o                             | -                  | 2 | none | option '-o' needs a value | option without its value
pb-plot     | pairs                                | empty.tsv          | 1 | none | empty.tsv: empty input$ | empty file
pb-plot     | pairs                                | <empty.tsv         | 1 | none | stdin: empty input$ | empty stdin
pb-plot     | pairs                                | no-such.tsv        | 1 | none | no-such.tsv: cannot read$ | missing file
pb-plot     | pairs --column zz                    | pairs.tsv          | 1 | none | pairs.tsv: no column 'zz' for this picture$ | missing column
pb-plot     | trend                                | raw.tsv            | 1 | none | raw.tsv: no column 'first' for this picture | trend of a raw stream
pb-plot     | sense                                | pairs.tsv          | 1 | none | pairs.tsv: no column 'delay_ns' for this picture$ | sense of a pair stream
pb-plot     | runs                                 | raw.tsv            | 1 | none | raw.tsv: no column 'd' for this picture$ | runs of a raw stream
pb-plot     | pairs                                | pairs-header-only.tsv | 1 | none | pairs-header-only.tsv: no data rows after the header$ | header only
pb-plot     | pairs                                | comments-only.tsv  | 1 | none | comments-only.tsv: empty input: no header line$ | comments only
pb-plot     | pairs                                | pairs-d-word.tsv   | 1 | none | pairs-d-word.tsv:5: | a bad number: file:line
pb-plot     | runs                                 | pairs-d-word.tsv   | 1 | none | pairs-d-word.tsv:5: | runs: a bad number: file:line of the input
pb-plot     | pairs                                | pairs-d-blanks.tsv | 1 | none | pairs-d-blanks.tsv:3: | empty fields: not a number
pb-plot     | pairs                                | pairs-d-inf.tsv    | 1 | none | pairs-d-inf.tsv:5: | -inf: not a finite number
pb-plot     | trend --column lr                    | pairs-lr-nan.tsv   | 1 | none | pairs-lr-nan.tsv:12: | NaN: not a finite number
pb-plot     | pairs                                | pairs-short.tsv    | 1 | none | pairs-short.tsv:10: 7 fields | a short row
pb-plot     | pairs                                | pairs-cr-row.tsv   | 1 | none | pairs-cr-row.tsv:9: CR before end of line | CRLF
pb-plot     | pairs                                | pairs-garbage.tsv  | 1 | none | pairs-garbage.tsv:[0-9]+: | garbage after the header: file:line
pb-plot     | pairs                                | garbage.bin        | 1 | none | garbage.bin:1: bad column name | binary garbage
pb-plot     | runs --level 2                       | pairs.tsv          | 2 | none | --level | a bad --level: usage, exit 2
EOF

# check TOOL ARGS FIXTURE STATUS STDOUT MESSAGE WHAT: one case, one TAP line
check() {
	tool=$1 fix=$3 want=$4 out=$5 pat=$6 what=$7
	set -f
	if [ "$2" = - ]; then set --; else eval "set -- $2"; fi
	set +f
	in=/dev/null
	case $fix in
	-) ;;
	\<*) in=${fix#<} ;;
	*) set -- "$@" "$fix" ;;
	esac
	name="$tool $* (${what#NOVALGRIND: })"
	case $what in NOVALGRIND*) if [ "${PB_VALGRIND:-0}" = 1 ]; then
		skip "$name: posix_spawn under valgrind"; return; fi ;; esac
	if [ "$tool" = pb-plot ] && [ "$want" = 1 ] && [ -z "$gnuplot" ]; then
		skip "$name: no gnuplot"; return; fi
	timeout -k 5 "$tmo" "$tool" "$@" <"$in" >"$T/out" 2>"$T/err"
	rc=$?
	case $pat in ^*) ;; *) pat="^$tool: $pat" ;; esac
	why=
	if [ "$rc" -ge 124 ]; then why="crashed or hung: status $rc"
	elif [ "$rc" -ne "$want" ]; then why="status $rc, want $want"
	elif [ "$(wc -l <"$T/err")" -ne 1 ]; then why="$(wc -l <"$T/err") lines on stderr, want 1"
	elif ! grep -Eq -- "$pat" "$T/err"; then why="stderr does not match $pat"
	fi
	if [ -z "$why" ]; then
		data=$(grep -vc '^#' "$T/out")
		case $out in
		none) [ -s "$T/out" ] && why="stdout not empty" ;;
		head) [ "$data" -le 1 ] || why="$((data - 1)) data rows on stdout" ;;
		some) ;;
		*) why="bad stdout kind '$out' in the table" ;;
		esac
	fi
	todo=
	case $what in TODO*) todo=" # $what" name="$tool $*" ;; esac
	n=$((n + 1))
	if [ -z "$why" ]; then
		echo "ok $n - $name$todo"
	else
		echo "not ok $n - $name$todo"
		[ -n "$todo" ] && return   # known: no noise in the suite's output
		failed=$((failed + 1))
		diag "$why; stderr: $(head -c 300 "$T/err" | LC_ALL=C tr -c '\n[:print:]' '?')"
	fi
}

while IFS='	' read -r tool args fix st out pat what; do
	check "$tool" "$args" "$fix" "$st" "$out" "$pat" "$what"
done <"$T/cases"
done_testing
