# import.sh: what the importers share. Source it once $prog and die exist
# and the arguments are checked: it finds jq (unless $import_without_jq is
# 1: gotest2pb.sh reads text, with awk) and makes $tmp, a private
# temporary directory removed at exit.

[ "${import_without_jq:-0}" = 1 ] || command -v jq >/dev/null 2>&1 ||
	die "jq not found (install the Debian package jq)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/$prog.XXXXXX") || die "cannot make a temporary directory"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# shell_words WORD...: the words on one line, each quoted where a shell
# would need it, for the provenance line.
shell_words() {
	sw_line=
	for sw_w in "$@"; do
		case $sw_w in
		*[!A-Za-z0-9_./,:=+-]*|'') sw_w="'$(printf '%s' "$sw_w" | sed "s/'/'\\\\''/g")'" ;;
		esac
		sw_line="${sw_line:+$sw_line }$sw_w"
	done
	printf '%s' "$sw_line"
}

# jq_name FILE: FILE's name in messages; a script that reads a copy of a
# file (an unpacked .gz) redefines it to name the original.
jq_name() { printf '%s' "$1"; }

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
		for jr_f in $jq_files; do
			jq -n 'input | [inputs] | empty' "$jr_f" 2>"$tmp/err" && continue
			die "$(jq_name "$jr_f"): not JSON: $(jq_error)"
		done
		die "not JSON: $jr_msg" ;;
	*) die "not $jq_kind: $jr_msg" ;;
	esac
}
