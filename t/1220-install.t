#!/bin/sh
# make install / make uninstall with DESTDIR and PREFIX, from a copy of the
# tree (make copy-to): the programs, the man pages, the gnuplot scripts and
# the bash completion land where they belong, with their modes whatever
# the umask; the link line printed for pb-run is the command; the
# installed pb-plot and pb-sense work from the install tree alone (PATH
# without the source tree); uninstall removes every file it installed. Then the completion itself, in bash: every tool registered,
# its long options, the values of the options that take a fixed set,
# KIND for pb-plot.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
W=$top/examples/workload/pb-workload
TOOLS="pb-run pb-pair pb-logratio pb-tint pb-boot pb-cross pb-sense pb-plan pb-plot pb-check pb-compare pb-report"
cd "$T" || exit 1
root=$T/root
R=$root/usr/local
C=$R/share/bash-completion/completions
# The outer make's flags (jobserver, variables) are not for this one;
# and this one builds and installs from a copy of the tree (make copy-to,
# as make asan and make musl build theirs), so that the suite's own
# binaries are never rebuilt under it (make musl's PG=0 build would be
# relinked with PostgreSQL by a make that does not know PG=0).
nomk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make "$@"; }
mk() { nomk -C "$T/copy" "$@" DESTDIR="$root" PREFIX=/usr/local; }
nomk -C "$top" copy-to TO="$T/copy" >copy.log 2>&1
is "$?:$(ls "$top/bin/pb-boot" "$top/lib/libpb.a" 2>/dev/null | wc -l | tr -d ' '):$(cd "$T/copy" && ls bin/pb-boot lib/libpb.a 2>/dev/null)" "0:2:" \
	"make copy-to: a copy without the built files; the tree's own build is left as it was"
mkdir precious && echo keep >precious/file
nomk -C "$top" copy-to TO="$T/precious" >precious.log 2>&1
is "$?:$(cat precious/file)" "2:keep" "make copy-to into a directory it did not make: exit 2, nothing removed"

# --- make install, by a caller whose umask is 077
(umask 077 && mk install) >install.log 2>&1
st=$?
[ "$st" = 0 ] || diag "make install: exit $st" "$(tail -n 5 install.log)"
# the modes: explicit, not the umask's
bad=$(find "$root" | while read -r f; do
	case $f in
	"$R"/bin/*) want=-rwxr-xr-x ;;
	"$R"/share/pb/examples/*) want=-rw-r--r--; [ ! -x "$top/${f#"$R"/share/pb/}" ] || want=-rwxr-xr-x ;;
	*) want=-rw-r--r-- ;;
	esac
	[ ! -d "$f" ] || want=drwxr-xr-x
	m=$(ls -ld "$f" | cut -c1-10)
	[ "$m" = "$want" ] || echo "$m ${f#"$root"}"
done)
is "$st:$(find "$R/bin" "$R/share/pb/examples" -type f -perm -0755 | wc -l | tr -d ' '):$bad" \
	"0:$(($(echo $TOOLS | wc -w) + $(find "$top/examples" -type f -perm -u+x ! -path '*/out/*' ! -name pb-workload ! -name worker | wc -l))):" \
	"make install DESTDIR=... PREFIX=/usr/local (umask 077): exit 0; programs and the examples' scripts 0755, directories 0755, pages, scripts and data 0644"
missing=
for t in $TOOLS; do
	[ -x "$R/bin/$t" ] || missing="$missing bin/$t"
	[ -f "$R/share/man/man1/$t.1" ] || missing="$missing man1/$t.1"
	[ -f "$C/$t" ] || missing="$missing completions/$t"
done
for m in pb pb-worker pb-pg; do
	[ -f "$R/share/man/man7/$m.7" ] || missing="$missing man7/$m.7"
done
for g in common runs sense trend pairs hosts; do
	[ -f "$R/share/pb/$g.gp" ] || missing="$missing share/pb/$g.gp"
done
is "$missing" "" "every tool in bin, its man page in man1, its completion; pb.7, pb-worker.7 and pb-pg.7 in man7; the gnuplot scripts in share/pb"
extra=
for f in "$R"/bin/*; do
	t=${f##*/}
	[ -f "$R/share/man/man1/$t.1" ] && [ -f "$C/$t" ] || extra="$extra $t"
done
is "$extra" "" "every installed program has a man page and a completion"
is "$(find "$root" -type f ! -path "$R/*" | wc -l | tr -d ' ')" 0 "nothing outside DESTDIR/PREFIX"
is "$(for t in $TOOLS; do head -n 1 "$R/share/man/man1/$t.1"; done | grep -vc '^\.Dd ')" 0 \
	"the man pages are mdoc (.Dd first)"
cmp -s "$C/pb-tint" "$top/share/completion/pb.bash"
is "$?" 0 "the completion under each tool's name is share/completion/pb.bash"
# (the copy's make builds the programs from the sources: the installed
# pb-tint is the tree's bin/pb-tint, whose --version line it must print)
v=$(sed -n 's/^VERSION = //p' "$top/config.mk")
run "$R/bin/pb-tint" --version
is "$rc:$(cat "$T/out")|$("$top/bin/pb-tint" --version 2>&1)" "0:pb-tint (pb) $v|pb-tint (pb) $v" \
	"the installed pb-tint runs: the --version line of config.mk's version, as bin/pb-tint's"

# --- the installed scripts find their own tree: PATH without the source
P=/usr/bin:/bin
pb-pair "$D/raw-small.tsv" >pairs.tsv
if command -v gnuplot >/dev/null 2>&1; then
	run env PATH="$P" "$R/bin/pb-plot" runs pairs.tsv
	is "$rc:$(cat "$T/err"):$(grep -c 'Per-run 95% intervals' "$T/out")" "0::1" "installed pb-plot: a text plot, from share/pb of the install tree"
	like "$(cat "$T/out")" 'Per-run 95% intervals' "... the runs picture"
	run env PATH="$P" "$R/bin/pb-plot" runs -o runs.svg pairs.tsv
	is "$rc:$(grep -c '<svg' runs.svg 2>/dev/null)" "0:1" "installed pb-plot -o runs.svg: an SVG"
else
	skip "gnuplot not installed"; skip "gnuplot not installed"; skip "gnuplot not installed"
fi
mkdir -p elsewhere
cp "$R/bin/pb-plot" elsewhere/
fails 1 "^pb-plot: gnuplot scripts not found in $T/elsewhere/../share/pb\$" \
	"pb-plot away from its tree says where it looked" env PATH="$P" elsewhere/pb-plot runs pairs.tsv
run env PATH="$P" "$R/bin/pb-sense" --delays 0,2ms --runs 2 --pairs 3 --warmup 0 --resamples 50 \
	--seed 1 --quiet --no-shell -- "$W --us 10"
is "$rc:$(cat "$T/err"):$(row_count "$T/out")" "0::2" "installed pb-sense runs pb-run, pb-pair, pb-boot, pb-cross from its bin"
is "$(rows "$T/out" | cut -f1 | tr '\n' ' ')" "0 2000000 " "... one row per delay"

# --- the build's own checks
# The link line make printed for pb-run is the command: run as it is, it
# links pb-run again.
line=$(grep -e '-o bin/pb-run ' install.log)
rm -f "$T/copy/bin/pb-run"
(cd "$T/copy" && sh -c "$line") >relink.log 2>&1
is "$?:$("$T/copy/bin/pb-run" --version 2>&1)|$("$top/bin/pb-run" --version 2>&1)" "0:pb-run (pb) $v|pb-run (pb) $v" \
	"the link line make prints for pb-run, run by sh as it is, links pb-run (bin/pb-run's --version line)"
[ -n "$line" ] || diag "no link line for pb-run in make install's output"

# --- the examples' sources under share/pb/examples, nothing built there
ex=$root/usr/local/share/pb/examples
is "$(cd "$top/examples" && find . -type f \( -name '*.c' -o -name '*.sh' -o -name Makefile -o -name '*.md' \) ! -path '*/out/*' | sort | tr '\n' ' ')" \
   "$(cd "$ex" && find . -type f \( -name '*.c' -o -name '*.sh' -o -name Makefile -o -name '*.md' \) | sort | tr '\n' ' ')" \
	"the examples' sources are installed under share/pb/examples"
is "$([ -e "$ex/workload/pb-workload" ] || [ -e "$ex/worker/worker" ] ||
	[ -e "$ex/preview-cost-jvm/classes" ] || echo clean)" clean \
	"no built example binary is installed"

# --- make uninstall
mk uninstall >uninstall.log 2>&1
is "$?" 0 "make uninstall with the same DESTDIR: exit 0"
is "$(find "$root" ! -type d | sed "s|^$root||")" "" "make uninstall removes every file (empty directories at most)"
mk uninstall >uninstall.log 2>&1
is "$?" 0 "make uninstall again: nothing to remove, still exit 0"

# --- the completion, in bash
if command -v bash >/dev/null 2>&1; then
	# comp WORDS...: what completing the last word gives, one per line
	cat >comp.bash <<'EOF'
. "$1"
shift
COMP_WORDS=("$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
f=$(complete -p "$1" | sed -n 's/.*-F \([^ ]*\) .*/\1/p')
"$f" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\n' "${COMPREPLY[@]}"
EOF
	comp() { bash comp.bash "$top/share/completion/pb.bash" "$@" | tr '\n' ' ' | sed 's/ $//'; }
	is "$(comp pb-tint --th)" "--threshold" "pb-tint --th<TAB>: --threshold"
	is "$(bash -c '. "$1"; for t in $2; do complete -p "$t" >/dev/null || echo "$t"; done' \
		bash "$top/share/completion/pb.bash" "$TOOLS")" "" "sourcing it registers every tool"
	is "$(comp pb-run --order '')" "random alternate blocked" "pb-run --order <TAB>: the three orders"
	is "$(comp pb-run --order = a)" "alternate" "pb-run --order=a<TAB> (bash splits at =)"
	is "$(comp pb-pair --stat m)" "median mean min" "pb-pair --stat m<TAB>"
	is "$(comp pb-boot --method '')" "percentile expanded bca expanded-bca" "pb-boot --method <TAB>"
	is "$(comp pb-plot '')" "runs sense trend pairs hosts" "pb-plot <TAB>: KIND"
	is "$(comp pb-plot -o x.png t)" "trend" "pb-plot -o FILE t<TAB>: KIND after -o FILE"
	mkdir study.d && touch study.tsv
	is "$(comp pb-report stu)" "study.d" "pb-report <TAB>: directories only"
	is "$(comp pb-sense --delay)" "--delays" "pb-sense --delay<TAB>: --delays, not pb-run's --delay"
	is "$(comp pb-sense --fir)" "--first-run" "pb-sense: pb-run's options too"
	touch 'data file.tsv'
	is "$(comp pb-tint --column lr da)" "" "pb-tint FILE: left to bash's file names (-o default)"
	# every long option of every tool, from the option lines of --help and
	# the C sources' option tables, against what the completion offers
	drift=
	for t in $TOOLS; do
		offered=" $(comp "$t" -) "
		src=$top/bin/$t.c
		[ "$t" = pb-run ] && src=$top/lib/runopt.c   # pb-run's table, shared with pb-compare
		"$top/bin/$t" --help | grep -q -- '^ *-.*--[a-z]' || drift="$drift $t:(no options in --help)"
		{
			"$top/bin/$t" --help | grep -- '^ *-' | grep -o -- '--[a-z][a-z-]*'
			[ -f "$src" ] && sed -n 's/^[[:space:]]*{ "\([a-z-]*\)", .*/--\1/p' "$src"
		} | sort -u >opts
		while read -r o; do
			case $offered in *" $o "*) ;; *) drift="$drift $t:$o" ;; esac
		done <opts
	done
	is "$drift" "" "every long option of every tool is offered (--help and longopts)"
else
	skip "bash not installed"
fi

done_testing
