# pb.sh: what pb's sh tools share, sourced by pb-sense and pb-plot once
# they have set prog and put pb's bin first in PATH: messages and exits as
# the C tools make them (pb(7)), output whose writes are checked, long
# options resolved as getopt_long resolves them, text escaped as
# lib/stream.c escapes it, the version of the C tools beside them, and
# columns read by name. POSIX sh (dash, busybox).

pb_tab=$(printf '\t')
pb_cr=$(printf '\r')

# --- Messages and exits ---------------------------------------------------

# say TEXT: TEXT on one line of stderr, its control bytes written as \xNN
# as the C tools write them: a value quoted in a message cannot break the
# line or reach the terminal as an escape.
say() {
	printf '%s\n' "$*" | LC_ALL=C awk '
		BEGIN { for (i = 1; i < 32; i++) hex[sprintf("%c", i)] = sprintf("\\x%02x", i)
		        hex[sprintf("%c", 127)] = "\\x7f" }
		{ out = out (NR > 1 ? "\\x0a" : "")
		  if ($0 !~ /[[:cntrl:]]/) { out = out $0; next }
		  for (i = 1; i <= length($0); i++) {
			c = substr($0, i, 1)
			out = out (c in hex ? hex[c] : c)
		  } }
		END { print out }' >&2
}
die() { say "$prog: $*"; exit 1; }
usage_error() { say "$prog: $* (see $prog --help)"; exit 2; }

# put: stdin to stdout, where a write error (a full disk) is an error,
# in one line; a reader that went away (SIGPIPE) ends us as it would cat.
put() {
	err=$(cat 2>&1 >&3) || {
		st=$?
		[ "$st" -gt 128 ] && exit "$st"
		err=${err##*: }
		printf '%s: write error on standard output: %s\n' "$prog" "${err:-I/O error}" >&2
		exit 1
	}
} 3>&1

# pb_version: the version of the C tools beside us, config.mk's VERSION
# compiled into them, so that one build says one version.
pb_version() {
	pv=$(pb-boot --version 2>/dev/null)
	case $pv in
	"pb-boot (pb) "?*) printf '%s\n' "${pv#pb-boot (pb) }" ;;
	*) die "pb-boot --version did not answer (install pb whole: $prog runs pb's C tools)" ;;
	esac
}
# version_exit: --version's answer
version_exit() {
	pv=$(pb_version) || exit
	put <<EOF
$prog (pb) $pv
EOF
	exit 0
}

# --- Long options -----------------------------------------------------------

# opt_resolve WORD NAMES: WORD is --name or --name=value; NAMES lists the
# long option names, a trailing ':' on those that take a value (as
# pb_opt_names gives them). Sets opt_name to the full name
# (without --) and opt_takes to 1 when it takes a value. Returns 1 when
# WORD names no option, 2 when it abbreviates several (opt_name then
# lists them).
opt_resolve() {
	or_word=${1%%=*}
	or_word=${or_word#--}
	opt_name= opt_takes=0 or_n=0
	for or_o in $2; do
		or_bare=${or_o%:}
		if [ "$or_bare" = "$or_word" ]; then
			opt_name=$or_bare
			[ "$or_bare" = "$or_o" ] && opt_takes=0 || opt_takes=1
			return 0
		fi
		case $or_bare in
		"$or_word"*)
			case " $opt_name " in *" $or_bare "*) continue ;; esac
			opt_name="${opt_name:+$opt_name }$or_bare"
			or_n=$((or_n + 1))
			[ "$or_bare" = "$or_o" ] && opt_takes=0 || opt_takes=1 ;;
		esac
	done
	[ "$or_n" = 1 ] && return 0
	[ "$or_n" = 0 ] && return 1
	return 2
}

# opt_full WORD NAMES: sets opt_word to WORD with its name written out in
# full, or makes a usage error of an unknown or ambiguous one, or of a
# value given to an option that takes none.
opt_full() {
	opt_resolve "$1" "$2"
	case $? in
	1) usage_error "unknown option '${1%%=*}'" ;;
	2) usage_error "option '${1%%=*}' is ambiguous (--$(echo "$opt_name" | sed 's/ /, --/g'))" ;;
	esac
	case $1 in
	*=*)
		[ "$opt_takes" = 1 ] || usage_error "option '--$opt_name' takes no value"
		opt_word="--$opt_name=${1#*=}" ;;
	*) opt_word="--$opt_name" ;;
	esac
}

# --- Option tables ----------------------------------------------------------

# A tool's options are listed once, for its --help and --list-options, one
# line each: the names as --help shows them ("-o, --output FILE", several
# comma-separated on one line), a TAB, the values of a fixed set (space-
# separated, or nothing), a TAB, the help; a line without names goes on
# with the help of the one above. Each reads the table on stdin.

# pb_opt_help WIDTH: --help's option lines, the help from column WIDTH
# (two spaces after names that reach it), then --help, --version and
# --list-options
pb_opt_help() {
	awk -F "$pb_tab" -v w="$1" '{
		n = $1 == "" ? "" : "  " $1
		if ($3 == "") print n
		else if ($1 != "" && length(n) >= w) print n "  " $3
		else printf "%-" w "s%s\n", n, $3 }
		END { print "  --help, --version, --list-options" }'
}

# pb_opt_list [LINES]: --list-options' lines (as the C tools write them,
# lib/opt.h): each long option, "=KIND" when it takes a value (the
# capitals its value starts with), its short form, its values; then LINES
# (more of them: pb-run's, for pb-sense), then --help, --version and
# --list-options
pb_opt_list() {
	PB_MORE=${1-} awk -F "$pb_tab" '$1 != "" {
		n = split($1, t, ", "); short = ""
		for (i = 1; i <= n; i++) {
			if (t[i] !~ /^--/) { short = " " t[i]; continue }
			name = t[i]; arg = ""
			if ((j = index(name, " ")) > 0) { arg = substr(name, j + 1); name = substr(name, 1, j - 1) }
			if (name in seen) continue
			seen[name] = 1
			kind = arg; sub(/[^A-Z].*/, "", kind)
			print name (arg == "" ? "" : "=" (kind == "" ? "VALUE" : kind)) short ($2 == "" ? "" : " " $2)
			short = ""
		}
	}
	END { if (ENVIRON["PB_MORE"] != "") print ENVIRON["PB_MORE"]
		print "--help"; print "--version"; print "--list-options" }'
}

# pb_opt_names: the options of --list-options' lines on stdin (pb(7),
# COMMAND LINE) as opt_resolve takes them ("name", "name:" when it takes a
# value), but --list-options (spelled out in full, it shortens no other);
# or the first word that does not name an option, alone, and status 1
pb_opt_names() {
	awk '$1 !~ /^--[a-z0-9][a-z0-9-]*(=[A-Z]*)?$/ { bad = $1 == "" ? "(an empty line)" : $1; exit 1 }
		$1 != "--list-options" { w = substr($1, 3); if (sub(/=.*/, "", w)) w = w ":"
			out = out (out == "" ? "" : " ") w }
		END { print (bad != "" ? bad : out); exit bad != "" }'
}

# is_level L: L is a number between 0 and 1, as 0.95 or .95
is_level() {
	case $1 in ''|*[!0-9.]*|*.*.*|*[!0-9]) return 1 ;; esac
	printf '%s\n' "$1" | awk '!($1 ~ /^0?\.[0-9]+$/ && $1 > 0 && $1 < 1) { exit 1 }'
}

# --- Text as the streams carry it -------------------------------------------

# pb_escape TEXT: TEXT with backslash, newline, CR and TAB written as
# \\, \n, \r and \t, so that it stays on one line of a stream. The '.'
# keeps a trailing newline of TEXT, which sed would not see.
pb_escape() {
	printf '%s.\n' "$1" |
		sed -e 's/\\/\\\\/g' -e "s/$pb_tab/\\\\t/g" -e "s/$pb_cr/\\\\r/g" |
		sed -n -e 1h -e '1!H' -e '${x;s/\n/\\n/g;s/\.$//;p;}'
}

# pb_shell_word WORD: WORD as a shell would need it, for the provenance
# line: as it is when it holds only letters, digits and _./:=,+@%-,
# otherwise in single quotes, escaped as above ('\'' for a quote).
pb_shell_word() {
	case $1 in
	''|*[!abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=,+@%-]*)
		printf "'%s'" "$(pb_escape "$1" | sed "s/'/'\\\\''/g")" ;;
	*) printf '%s' "$1" ;;
	esac
}

# pb_fields FILE COL...: those columns of the first row of a stream a C
# tool wrote, found by name in its header, TAB-joined
pb_fields() {
	pf_file=$1
	shift
	awk -F'\t' -v want="$*" '/^#/ { next } !h { for (i = 1; i <= NF; i++) k[$i] = i; h = 1; next }
		{ n = split(want, w, " "); for (j = 1; j <= n; j++) printf "%s%s", (j > 1 ? "\t" : ""), $k[w[j]]; exit }' "$pf_file"
}
