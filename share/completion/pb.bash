# bash completion for pb: the long options of every tool, the values of
# the options that take a fixed set, KIND for pb-plot, a directory for
# pb-report, file names otherwise. `make install` puts a copy under each
# tool's name in $(PREFIX)/share/bash-completion/completions, where
# bash-completion finds it on first use; or source this file from
# ~/.bashrc. pb-run's options could come from `pb-run --list-options`, as
# pb-sense takes them; they are written here so that completing needs no
# pb-run on PATH, and t/1220-install.t checks them against the sources.

# Options that take a value, per tool (those not listed take none).
_pb_run_val='--runs --pairs --warmup --order --seed --delay --delay-arm --reference --first-run
	--worker --arms --setup --prepare --cleanup --output --timeout --pg --sql-a --sql-b
	--sql-a-file --sql-b-file --sql --sql-file --setup-sql --cpu --until --threshold --min-runs --stat
	--level --seq-g --max-time'
_pb_run_flag='--no-shell --ignore-failure --quiet --rollback --list-options --help --version'

_pb_options() {   # TOOL: "VALUED|FLAGS"
	case $1 in
	pb-run) echo "$_pb_run_val|$_pb_run_flag" ;;
	pb-pair) echo "--stat --exclude --why|--by-run --host --help --version --list-options" ;;
	pb-logratio) echo "--a --b --name|--help --version --list-options" ;;
	pb-tint) echo "--column --group --level --threshold --df-cap --seq-g --check --sense --adjust|--finding --log-ratio --sequential --no-sequential --help --version --list-options" ;;
	pb-boot) echo "--column --stat --group --block --resamples --level --seed --jobs --method --ties|--quartiles --help --version --list-options" ;;
	pb-cross) echo "--expect|--each --help --version --list-options" ;;
	pb-check) echo "--level --position-share --warmup-share --warmup-min --fence --spread-ratio --resamples --seed|--strict --help --version --list-options" ;;
	pb-plan) echo "--column --run --target --level --run-cost --pair-cost --max-runs|--help --version --list-options" ;;
	pb-plot) echo "-o --output --column --level|--help --version --list-options" ;;
	pb-report) echo "-o --output|--no-derive --help --version --list-options" ;;
	pb-sense)   # its own, then pb-run's but the delay, arm B and the list
		local v=" ${_pb_run_val//[$'\t\n']/ } " f=$_pb_run_flag
		v=${v/ --delay / }; v=${v/ --delay-arm / }; v=${v/ --sql-b / }; v=${v/ --sql-b-file / }
		v=${v/ --until / }; v=${v/ --threshold / }; v=${v/ --min-runs / }; v=${v/ --stat / }
		v=${v/ --level / }; v=${v/ --seq-g / }; v=${v/ --arms / }; v=${v/ --reference / }; v=${v/ --max-time / }
		v=${v/ --sql / }; v=${v/ --sql-file / }
		echo "--delays --budget --stat --raw --resamples --level $v|$f" ;;
	pb-compare)   # its own, then pb-run's but those it sets itself
		local v=" ${_pb_run_val//[$'\t\n']/ } " f=$_pb_run_flag o
		for o in --until --max-time --first-run --runs --pairs --warmup --threshold --min-runs \
			--stat --level; do v=${v/ $o / }; done
		f=${f/--quiet /}
		echo "--budget --threshold --runs --pairs --warmup --min-runs --stat --level --dir
			--parameter-scan --fail-if-slower --export-json --export-markdown --export-csv
			--export-report --color --from --analyse --analyze $v|--calibrate --quiet --no-pictures $f" ;;
	esac
}

# _pb_value TOOL OPTION CUR: complete the value of OPTION
_pb_value() {
	local words=
	case $1:$2 in
	*:--order) words='random alternate blocked' ;;
	*:--delay-arm|*:--reference) words='A B C D E F G H I J K L M N O P Q R S T U V W X Y Z' ;;
	*:--adjust) words='bonferroni holm' ;;
	*:--color) words='auto always never' ;;
	pb-pair:--stat|pb-run:--stat|pb-sense:--stat) words='median mean min p90 p99 lr-median' ;;
	*:--until) words='parity threshold halfwidth:0.01' ;;
	pb-sense:--delays) words=auto ;;
	pb-boot:--stat) words='median mean p90 p99' ;;
	*:--method) words='percentile expanded bca expanded-bca' ;;
	*:--ties) words='half below' ;;
	*:--expect) words='+ - auto' ;;
	pb-run:--output) words=inherit ;&
	*:-o|*:--output|*:--sql-a-file|*:--sql-b-file|pb-tint:--check|pb-tint:--sense|*:--export-*)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -W "$words" -- "$3"; compgen -f -- "$3")
		return ;;
	*:--raw|*:--dir|*:--from|*:--analyse|*:--analyze) compopt -o dirnames 2>/dev/null ;;
	*:--worker|*:--setup|*:--prepare|*:--cleanup)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -c -- "$3")
		return ;;
	esac
	mapfile -t COMPREPLY < <(compgen -W "$words" -- "$3")
}

_pb() {
	local tool=${1##*/} cur=${COMP_WORDS[COMP_CWORD]} i w prev opts valued
	local -a args=()
	opts=$(_pb_options "$tool") || return
	opts=${opts//[$'\t\n']/ }
	valued=" ${opts%%|*} "
	opts="${opts%%|*} ${opts#*|}"
	COMPREPLY=()

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
		elif [[ $valued == *" $w "* ]]; then
			[[ ${COMP_WORDS[i + 1]} == = ]] && ((i++))
			((i++))
		elif [[ $w != -* && $w != = ]]; then
			args+=("$w")
		fi
	done

	# The value of an option: "--opt VALUE", "--opt=VALUE" split by bash
	# at '=' into "--opt" "=" "VALUE", or one word "--opt=VALUE".
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	if [[ $cur == = && $valued == *" $prev "* ]]; then
		_pb_value "$tool" "$prev" ""
		return
	fi
	if [[ $prev == = ]] && ((COMP_CWORD >= 2)); then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	if [[ $valued == *" $prev "* ]]; then
		_pb_value "$tool" "$prev" "$cur"
		return
	fi
	if [[ $cur == --*=* && $valued == *" ${cur%%=*} "* ]]; then
		_pb_value "$tool" "${cur%%=*}" "${cur#*=}"   # '=' not a word break
		COMPREPLY=("${COMPREPLY[@]/#/${cur%%=*}=}")
		return
	fi

	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
	elif [[ $tool == pb-plot && ${#args[@]} -eq 0 ]]; then
		mapfile -t COMPREPLY < <(compgen -W 'runs sense trend pairs' -- "$cur")
	elif [[ $tool == pb-report ]]; then   # DIR: a study directory
		compopt -o dirnames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
	else
		compopt -o default 2>/dev/null
	fi
}

complete -F _pb pb-run pb-pair pb-logratio pb-tint pb-boot pb-cross pb-sense pb-plan pb-plot pb-check \
	pb-compare pb-report
