#!/bin/sh
# Every tool's options come from one table (lib/opt.h; pb.sh's Option
# tables for the sh tools): --help names them, --list-options lists them
# (pb(7), COMMAND LINE), and the bash completion offers what the tool
# lists, with no list of its own. pb-compare passes pb-run's options on
# from pb-run's table, and checks their values, and its own, before
# anything runs.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
comp_file=$top/share/completion/pb.bash

# The tools: the programs the Makefile builds and installs (FILTERS,
# TOOLS, SCRIPTS), each of them, and no other program in bin/.
tools=$(sed -n -e 's/^FILTERS *= *//p' -e 's/^TOOLS *= *//p' -e 's/^SCRIPTS *= *//p' "$top/Makefile" |
	tr ' ' '\n' |
	sed -n 's|^bin/||p' | sort -u)
others=
for f in "$top"/bin/pb-*; do
	[ -x "$f" ] && [ ! -d "$f" ] || continue
	t=${f##*/}
	case $t in pb-workload) continue ;; esac   # examples/workload's, on PATH for the manuals
	case " $(echo $tools) " in *" $t "*) ;; *) others="$others $t" ;; esac
done
is "$(echo "$tools" | wc -l | tr -d ' '):$others" "12:" \
	"the Makefile names 12 tools, and every program in bin/ is one of them"

# comp WORDS...: what the completion offers for the last word, one per line
cat >"$T/comp.bash" <<'EOF'
. "$1"
shift
COMP_WORDS=("$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
f=$(complete -p "$1" 2>/dev/null | sed -n 's/.*-F \([^ ]*\) .*/\1/p')
[ -n "$f" ] || { echo "no completion for $1" >&2; exit 1; }
"$f" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\n' "${COMPREPLY[@]}"
EOF
have_bash=0
command -v bash >/dev/null 2>&1 && have_bash=1
comp() { bash "$T/comp.bash" "$comp_file" "$@" 2>/dev/null | sort -u; }

for t in $tools; do
	# --list-options: exit 0, nothing on stderr, one option a line in
	# pb(7)'s form, the tool's own first and the three every tool has last
	run "$t" --list-options
	cp "$T/out" "$T/list"
	bad=$(grep -Ecv -- '^--[a-z0-9][a-z0-9-]*(=[A-Z]*)?( -[a-zA-Z])?( [^ ]+)*$' "$T/list")
	is "$rc:$(cat "$T/err"):$bad:$(($(wc -l <"$T/list") > 3)):$(tail -n 3 "$T/list" | tr '\n' ' ')" \
		"0::0:1:--help --version --list-options " \
		"$t --list-options: exit 0, one option a line, its own, then --help, --version, --list-options"
	cut -d' ' -f1 "$T/list" | sed 's/=.*//' | sort -u >"$T/listed"

	# the options its --help names on its option lines, each listed
	run "$t" --help
	grep -- '^ *-' "$T/out" | grep -o -- '--[a-z][a-z0-9-]*' | sort -u >"$T/named"
	own=$(grep -cvx -e --help -e --version -e --list-options "$T/named")
	missing=$(comm -23 "$T/named" "$T/listed" | tr '\n' ' ')
	is "$rc:$((own >= 2)):${missing:-none}" "0:1:none" \
		"$t --help: exit 0, names its options (2 or more), and --list-options lists each"

	if [ "$have_bash" = 0 ]; then
		skip "$t --<TAB>: bash not installed"
		continue
	fi
	# the completion of "TOOL --": each option --help names, and nothing
	# the tool does not list
	comp "$t" -- | grep -- '^--' >"$T/offered"
	missing=$(comm -23 "$T/named" "$T/offered" | tr '\n' ' ')
	extra=$(comm -13 "$T/listed" "$T/offered" | tr '\n' ' ')
	is "$((own >= 2)):${missing:-none}:${extra:-none}" "1:none:none" \
		"$t --<TAB>: the completion offers each option of --help, as $t lists them"
	# the values of each option that takes a fixed set (and not files,
	# directories or commands besides): those the tool lists
	wrong= checked=0
	while read -r first rest; do
		case $first in *=FILE|*=DIR|*=CMD) continue ;; *=*) ;; *) continue ;; esac
		rest=$(echo "$rest" | sed -e 's/^-[a-zA-Z] //' -e 's/^-[a-zA-Z]$//')
		[ -n "$rest" ] || continue
		got=$(comp "$t" "${first%%=*}" '' | tr '\n' ' ')
		want=$(printf '%s\n' $rest | sort -u | tr '\n' ' ')
		checked=$((checked + 1))
		[ "$got" = "$want" ] || wrong="$wrong ${first%%=*}:[$got]"
	done <"$T/list"
	case $t in
	pb-logratio|pb-plan|pb-check|pb-report|pb-plot) ;;   # no option takes a fixed set
	*) is "$((checked >= 1)):${wrong:-none}" "1:none" \
		"$t --OPTION <TAB>: the completion offers the values $t lists" ;;
	esac
done

# pb-compare lists pb-run's options it passes on, not those it sets
# itself; pb-sense too, and not those it refuses.
run pb-compare --list-options
like "$rc:$(cut -d' ' -f1 "$T/out" | sed 's/=.*//' | tr '\n' ' ')" \
	'^0:--budget .*--sequence --seq-g --min-effect .*--no-pictures .*--order .*--no-shell .*--worker .*--setup-sql --help --version --list-options $' \
	"pb-compare --list-options: its own, then pb-run's that pass through"
lacks "$T/out" '^--(until|max-time|first-run)[= ]' "pb-compare --list-options: not pb-run's options it sets itself"
run pb-sense --list-options
like "$rc:$(cut -d' ' -f1 "$T/out" | sed 's/=.*//' | tr '\n' ' ')" \
	'^0:--delays .*--quiet --runs .*--first-run .*--setup-sql --help --version --list-options $' \
	"pb-sense --list-options: its own, then pb-run's that pass through"
lacks "$T/out" '^--(delay|delay-arm|sql-b|until|arms)[= ]|^[^ ]+ -[a-zA-Z]( |$)' \
	"pb-sense --list-options: not the pb-run options it refuses, nor pb-run's short forms"

# --list-options is spelled out in full: it shortens no other option.
# (pb-boot: pb-plan's --l is ambiguous, --level and --levels.)
run pb-boot --l 0.9 --resamples 200 "$D/boot/runs.tsv"
ran_ok "pb-boot --l 0.9: --level, not ambiguous with --list-options"
like "$(meta pb-boot.level "$T/out")" '^0\.9$' "  at level 0.9"
run pb-plan --l 0.9 "$D/plan/balanced.tsv"
like "$rc:$(cat "$T/err")" "^2:pb-plan: option '--l' is ambiguous" \
	"pb-plan --l: ambiguous between --level and --levels, a usage error"

# pb-compare's values, its own and pb-run's it passes on, are checked
# before anything runs: exit 2, one line naming the option as the user
# gave it (once, not '----level'), nothing on stdout, no study directory,
# no pb-run started (a pb-run beside pb-compare says when it runs).
mkdir "$T/cmp" "$T/cmp/bin"
cp "$(command -v pb-compare)" "$T/cmp/bin/"
cat >"$T/cmp/bin/pb-run" <<EOF
#!/bin/sh
echo ran >>'$T/cmp/ran'
exit 1
EOF
chmod +x "$T/cmp/bin/pb-run"
cd "$T/cmp" || exit 1
check() {   # PATTERN OPTION VALUE
	run "$T/cmp/bin/pb-compare" "$2" "$3" -- true true
	cat "$T/err" >>"$T/cmp-errors"
	refused 2 "^pb-compare: $1 \(see pb-compare --help\)\$" \
		"pb-compare $2 $3: exit 2, one line naming $2, before anything runs" \
		"$(ls -A "$T/cmp" | tr '\n' ' ')" "bin "
}
check "--level wants a level between 0 and 1 \(such as 0\.95\), not '2'" --level 2
check "--stat is median, mean, min, lr-median, p90, p99 or qQ .*, not 'nope'" --stat nope
check "--color is auto, always or never, not 'x'" --color x
check "--runs wants a whole number from 1 to [0-9]+, not '0'" --runs 0
check "--order is random, alternate or blocked, not 'sideways'" --order sideways
check "--timeout must be more than 0" --timeout 0
check "--min-effect is a percentage above 0 and below 100, such as 2 for 2 %, not '100%'" --min-effect 100%
check "--tolerance is a percentage above 0 and below 100, such as 2 for 2 %, not '0'" --tolerance 0
lacks "$T/cmp-errors" '-{3}' "pb-compare: no doubled dashes in these messages (----level)"
cd "$top" || exit 1

done_testing
