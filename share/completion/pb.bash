# bash completion for pb: the long options of every tool and the values
# of those that take a fixed set, as the tool itself lists them (TOOL
# --list-options, asked once a session: pb(7)), KIND for pb-plot, a
# directory for pb-report, file names otherwise. `make install` puts a
# copy under each tool's name in $(PREFIX)/share/bash-completion/completions,
# where bash-completion finds it on first use; or source this file from
# ~/.bashrc. It holds no option of its own: a tool not on PATH is offered
# file names.

declare -gA _pb_listed   # TOOL (as typed): its --list-options

# _pb_ask TOOL: the lines of TOOL --list-options ("--runs=R -r",
# "--order=O random alternate blocked", "--quiet") in _pb_listed, asked
# once
_pb_ask() {
	local t=$1 out
	[[ -n ${_pb_listed[$1]+set} ]] && return
	[[ $t == "~/"* ]] && t=$HOME/${t#"~/"}
	out=$(command "$t" --list-options 2>/dev/null) && _pb_listed[$1]=$out
}

# _pb_value KIND CHOICES CUR: complete the value of an option: its choices,
# and the directories (KIND DIR), commands (CMD) or files (FILE, or no
# choices) that may be given too
_pb_value() {
	local kind=$1 words=$2 cur=$3
	case $kind in
	DIR)
		compopt -o dirnames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur"; compgen -d -- "$cur") ;;
	CMD)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur"; compgen -c -- "$cur") ;;
	*)
		if [[ -n $words && $kind != FILE ]]; then
			mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
		else
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur"; compgen -f -- "$cur")
		fi ;;
	esac
}

# _pb_takes WORD: WORD is an option that takes a value (_pb's takes)
_pb_takes() {
	[[ -n $1 && -n ${takes[$1]+set} ]]
}

_pb() {
	local tool=${1##*/} cur=${COMP_WORDS[COMP_CWORD]} i w prev line name short kind opts=
	local -a args=() f
	local -A takes=() choices=()
	COMPREPLY=()

	# The options, from the tool: "--name[=KIND] [-x] [CHOICE...]".
	_pb_ask "$1"
	while read -r line; do
		read -ra f <<<"$line"
		[[ ${f[0]-} == --?* ]] || continue
		name=${f[0]%%=*} kind=${f[0]#"$name"} short=
		f=("${f[@]:1}")
		if [[ ${f[0]-} == -[a-zA-Z] ]]; then
			short=${f[0]}
			f=("${f[@]:1}")
		fi
		for w in $name $short; do
			opts+=" $w"
			if [[ -n $kind ]]; then
				takes[$w]=${kind#=}
				choices[$w]=${f[*]}
			fi
		done
	done <<<"${_pb_listed[$1]-}"

	# The words before the cursor: after --, commands and their words;
	# an option that takes a value eats the next word (or --opt=value).
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [[ $w == -- ]]; then
			if ((i == COMP_CWORD - 1)) && [[ $tool == pb-run || $tool == pb-sense || $tool == pb-compare ]]; then
				compopt -o filenames 2>/dev/null
				mapfile -t COMPREPLY < <(compgen -c -- "$cur")
			else
				compopt -o default 2>/dev/null
			fi
			return
		elif _pb_takes "$w"; then
			[[ ${COMP_WORDS[i + 1]} == = ]] && ((i++))
			((i++))
		elif [[ $w != -* && $w != = ]]; then
			args+=("$w")
		fi
	done

	# The value of an option: "--opt VALUE", "--opt=VALUE" split by bash
	# at '=' into "--opt" "=" "VALUE", or one word "--opt=VALUE".
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	if [[ $cur == = ]] && _pb_takes "$prev"; then
		_pb_value "${takes[$prev]}" "${choices[$prev]}" ""
		return
	fi
	if [[ $prev == = ]] && ((COMP_CWORD >= 2)); then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	if _pb_takes "$prev"; then
		_pb_value "${takes[$prev]}" "${choices[$prev]}" "$cur"
		return
	fi
	if [[ $cur == --*=* ]] && _pb_takes "${cur%%=*}"; then
		name=${cur%%=*}
		_pb_value "${takes[$name]}" "${choices[$name]}" "${cur#*=}"   # '=' not a word break
		COMPREPLY=("${COMPREPLY[@]/#/$name=}")
		return
	fi

	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
	elif [[ $tool == pb-plot && ${#args[@]} -eq 0 ]]; then
		mapfile -t COMPREPLY < <(compgen -W 'runs sense trend pairs hosts' -- "$cur")
	elif [[ $tool == pb-report ]]; then   # DIR: a study directory
		compopt -o dirnames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
	else
		compopt -o default 2>/dev/null
	fi
}

complete -F _pb pb-run pb-pair pb-logratio pb-tint pb-boot pb-cross pb-sense pb-plan pb-plot pb-check \
	pb-compare pb-report
