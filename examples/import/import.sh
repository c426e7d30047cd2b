# import.sh: what the importers share. Source it first thing, once $prog
# is set: it defines die and usage_error, import_options (the options),
# import_ab (the --a and --b checks), import_start (jq found, unless
# $import_without_jq is 1: gotest2pb.sh reads text, with awk; $tmp, a
# private temporary directory removed at exit), import_files (the files
# checked), jq_run and import_jq (jq with the shared definitions of
# $jq_prelude), and import_finish (warnings said, the stream written).

die() { printf '%s\n' "$prog: $*" >&2; exit 1; }   # printf: echo would read backslashes
usage_error() { printf '%s\n' "$prog: $* (see $prog --help)" >&2; exit 2; }
nl='
'

# import_options VALUED ARG...: --help, and --NAME VALUE or --NAME=VALUE
# for each NAME of the space-separated list VALUED, stored in the shell
# variable NAME; a value may not be empty. Stops at --, which it takes, or
# at the first word that is not an option. import_used: how many ARGs it
# took (shift them).
import_options() {
	io_valued=" $1 "
	shift
	import_used=0
	while [ $# -gt 0 ]; do
		io_n=1
		case $1 in
		--help|-h) sed -n '2,/^# shellcheck/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
		--) import_used=$((import_used + 1)); return 0 ;;
		--*=*) io_name=${1%%=*} io_val=${1#*=} ;;
		-?*) io_name=$1 io_n=2 ;;
		*) return 0 ;;
		esac
		io_name=${io_name#--}
		case $io_name in
		''|*[!a-z]*) usage_error "unknown option '$1'" ;;
		esac
		case $io_valued in
		*" $io_name "*) ;;
		*) usage_error "unknown option '--$io_name'" ;;
		esac
		if [ "$io_n" = 2 ]; then
			[ $# -ge 2 ] || usage_error "option '$1' needs a value"
			io_val=$2
		fi
		[ -n "$io_val" ] || usage_error "option '--$io_name' needs a value, not ''"
		eval "$io_name=\$io_val"   # a name of VALUED (letters), never one from the input
		shift "$io_n"
		import_used=$((import_used + io_n))
	done
}

# import_ab WHAT: --a and --b, the shell variables a and b, go together
# and name two different WHATs.
import_ab() {
	case $a,$b in ?*,|,?*) usage_error "--a and --b go together" ;; esac
	[ -z "$a" ] || [ "$a" != "$b" ] || usage_error "--a and --b name the same $1"
}

# import_start: once the arguments are checked.
import_start() {
	[ "${import_without_jq:-0}" = 1 ] || command -v jq >/dev/null 2>&1 ||
		die "jq not found (install the Debian package jq)"
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$prog.XXXXXX") || die "cannot make a temporary directory"
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

# import_files FILE...: each a regular file that can be read, and whose
# name has no newline; files: their names, each after a newline, and
# jq_files the paths jq is to read them by (jq_path), the same way.
import_files() {
	files='' jq_files=''
	for if_f; do
		case $if_f in *"$nl"*) die "a file name with a newline in it: rename the file" ;; esac
		[ -r "$if_f" ] && [ -f "$if_f" ] || die "$if_f: cannot read"
		files="$files$nl$if_f"
		jq_files="$jq_files$nl$(jq_path "$if_f")"
	done
}

# jq_path NAME: the path to give jq (or awk) for the file NAME: a name
# that starts with - would be read as an option, even after -- by some
# versions of jq, and awk reads a file named - as the standard input.
jq_path() {
	case $1 in -*) printf './%s' "$1" ;; *) printf '%s' "$1" ;; esac
}

# import_jq ARG...: jq -n -r ARG... over $jq_prelude$program and the
# files of $jq_files, in their order, into $tmp/out. Each line the
# program writes goes through stream_line.
import_jq() {
	IFS=$nl
	set -f
	# shellcheck disable=SC2086   # $jq_files: one path a line
	jq_run -n -r --arg names "$files" --arg paths "$jq_files" "$@" \
		"$jq_prelude($program) | stream_line" $jq_files >"$tmp/out"
	unset IFS
	set +f
}

# import_finish: the stream's warnings on stderr, then the stream.
import_finish() {
	sed -n -e 's/^# import\.unpaired: /'"$prog"': warning: /p' \
		-e 's/^# import\.resolution: /'"$prog"': warning: /p' "$tmp/out" >&2
	cat "$tmp/out" 2>/dev/null || die "write error on standard output"
}

# What every jq program begins with: bad(m) ends it with the message m
# (jq_run says it), one_line escapes a text onto one line as pb(7)'s
# metadata values are (a backslash doubled first), word makes it
# one word of a '# run:' line, stream_line keeps each line the program
# writes one line whatever a value forgot, no_nul($file) refuses a NUL
# in what a file gave, file_values($twice) is the input files in the
# order of import_files, each one JSON value, as [{file, d}] (a file given
# twice is refused, with $twice after the name), and
# no_copies(keys; what; why) refuses a file that repeats another's.
jq_prelude='
def bad(m): error("@" + m);
def one_line: gsub("\\\\"; "\\\\") | gsub("\r"; "\\r") | gsub("\n"; "\\n") | gsub("\t"; "\\t");
def word: tostring | one_line | gsub(" "; "%20");
# A value that missed one_line must not start a line of its own (a forged
# "# until:"): a line break left in a written line is escaped here.
def stream_line: if test("[\n\r]") then gsub("\r"; "\\r") | gsub("\n"; "\\n") else . end;
# pb(7) has no escape for a NUL, and every pb tool refuses a stream with
# one: the record of what a file gave (the names, hosts, dates it keeps to
# write) is refused when a string in it holds one, with the string shown.
def no_nul($file):
	([.. | strings | select(test("\u0000"))][0]) as $s
	| if $s == null then .
	  else bad("\($file): \($s | tojson | .[:80]) holds a NUL character (\\u0000), which a pb stream cannot hold") end;
# jq reads the files by $paths (jq_path); messages and the stream give
# the names as typed, $names.
def file_values($twice):
	($names | split("\n") | .[1:]) as $fnames
	| ($paths | split("\n") | .[1:]) as $fpaths
	| [inputs | {file: $fnames[$fpaths | index([input_filename])], d: .}] as $vals
	| ($fnames | group_by(.) | map(select(length > 1))[0][0] // empty
	   | bad("\(.): given twice\($twice)")),
	  ($fnames[] as $n | [$vals[] | select(.file == $n)] | length
	   | if . == 0 then bad("\($n): no JSON value in it (empty, or cut short)")
	     elif . > 1 then bad("\($n): more than one JSON value in the file") else empty end),
	  $vals;
# The input, records with .file, unchanged when no file repeats an
# earlier one: a copy of one export given as a second run is no second
# run (and the method pb follows rejects duplicate run timestamps). keys:
# what identifies a file (its times, its timestamps; null: none), one or
# more; the later file is named, then what, then the earlier, then why.
def no_copies(keys; what; why):
	. as $F
	| reduce range(0; length) as $i ({};
		$F[$i].file as $f
		| reduce ([$F[$i] | keys | select(. != null) | tojson] | unique[]) as $k (.;
			if has($k) and .[$k] != $f then bad("\($f): \(what) as \(.[$k])\(why)")
			else .[$k] //= $f end))
	| $F;
'

# meta_escape TEXT: TEXT as pb(7) escapes a metadata value, on one line:
# a backslash, TAB, CR and newline as \\, \t, \r and \n (x keeps a
# trailing newline from $(...)).
meta_escape() {
	me_tab=$(printf '\t') me_cr=$(printf '\r')
	me_out=$(printf '%sx' "$1" | sed -e 's/\\/\\\\/g' -e "s/$me_tab/\\\\t/g" -e "s/$me_cr/\\\\r/g" |
		awk '{ printf "%s%s", (NR > 1 ? "\\n" : ""), $0 }')
	printf '%s' "${me_out%x}"
}

# shell_words WORD...: the words on one line, each quoted where a shell
# would need it, for the provenance line; inside the quotes the escapes
# of meta_escape, as pb(7) writes a provenance line.
shell_words() {
	sw_line=
	for sw_w in "$@"; do
		case $sw_w in
		*[!A-Za-z0-9_./,:=+-]*|'') sw_w="'$(meta_escape "$sw_w" | sed "s/'/'\\\\''/g")'" ;;
		esac
		sw_line="${sw_line:+$sw_line }$sw_w"
	done
	printf '%s' "$sw_line"
}

# operand_words FILE...: the operands for the provenance line, after
# "--" when one starts with - (the line is a command to paste again).
operand_words() {
	for ow_f; do
		case $ow_f in -*) printf '%s ' --; break ;; esac
	done
	shell_words "$@"
}

# jq_name PATH K: the name, in messages, of the file that jq read by PATH,
# the K-th of $jq_files: the K-th of $files.
jq_name() { printf '%s\n' "$files" | sed -n "$(($2 + 1))p"; }

# jq_run ARGS...: run jq; on failure, one line: "prog: why". Our own
# errors start with "@" and name the file. jq reads its files as one
# stream, so a value cut short in one file runs on into the next: on a
# parse error each file of $jq_files (one a line) is read again alone, to
# name the one at fault. $jq_kind says what a file should be ("a pyperf
# file").
jq_error() { sed -n '1{s/^jq: error (at [^)]*): //;p;}' "$tmp/err"; }
jq_run() {
	jq "$@" 2>"$tmp/err" && return 0
	jr_msg=$(jq_error)
	case $jr_msg in
	@*) die "${jr_msg#@}" ;;
	*' at line '*', column '*)
		set -f   # every path below ends in die
		IFS='
'
		jr_k=0
		for jr_f in $jq_files; do
			jr_k=$((jr_k + 1))
			jq -n 'input | [inputs] | empty' "$jr_f" 2>"$tmp/err" && continue
			die "$(jq_name "$jr_f" "$jr_k"): not JSON: $(jq_error)"
		done
		die "not JSON: $jr_msg" ;;
	*) die "not $jq_kind: $jr_msg" ;;
	esac
}
