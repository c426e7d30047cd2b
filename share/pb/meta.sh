# What pb's sh tools write, written as lib/stream.c and lib/err.c write it
# (pb(7)): metadata values escaped onto one line, the shell words of the
# provenance line, and messages with their control bytes shown. Sourced
# by pb-sense and pb-plot.

pb_tab=$(printf '\t')
pb_cr=$(printf '\r')

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

# pb_say TEXT: TEXT on one line of stderr, its control bytes written as
# \xNN as the C tools write them: a value quoted in a message cannot
# break the line or reach the terminal as an escape.
pb_say() {
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
