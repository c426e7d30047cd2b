# Long options for pb's sh tools, resolved as getopt_long resolves them in
# the C tools (pb(7)): an exact name, or a prefix of exactly one name.
# Sourced by pb-sense and pb-plot.

# opt_resolve WORD NAMES: WORD is --name or --name=value; NAMES lists the
# long option names, a trailing ':' on those that take a value. Sets
# opt_name to the full name (without --) and opt_takes to 1 when it takes
# a value. Returns 1 when WORD names no option, 2 when it abbreviates
# several (opt_name then lists them).
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

# opt_full WORD NAMES: WORD with its name written out in full, or a usage
# error (usage_error is the tool's) for an unknown or ambiguous one, or a
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
