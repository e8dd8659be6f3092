# bash completion for gpustep                               -*- shell-script -*-
# Installed as share/bash-completion/completions/gpustep (make install); or
# `source completion/gpustep.bash` by hand. Every list comes from the gpustep
# being completed, at completion time: options from --help (and each
# subcommand's usage), presets from --list-presets, kernels from
# --list-kernels, config keys and their allowed values from --list-config,
# kernel parameters from `-w KERNEL --list-params`, lessons from `gpustep
# lesson`. A new option, preset, kernel or key is completed without touching
# this file.

# _gpustep_run ARGS...: the binary being completed (the command word as typed:
# a name on PATH or a path), quiet and without a terminal.
_gpustep_run()
{
	local bin=${_gpustep_bin:-gpustep}
	"$bin" "$@" </dev/null 2>/dev/null
}

# _gpustep_usage SUBCOMMAND: its usage text (some print it on stderr, after
# an error about --help: from "usage:" on).
_gpustep_usage()
{
	local bin=${_gpustep_bin:-gpustep}
	"$bin" "$1" --help </dev/null 2>&1 | awk '/^usage:/ { on = 1 } on'
}

# _gpustep_first_column ARGS...: the first word of each line of a listing.
_gpustep_first_column()
{
	_gpustep_run "$@" | awk 'NF && $1 != "PATH" { print $1 }'
}

# _gpustep_options TEXT: the options a usage text names (--long and -x).
_gpustep_options()
{
	printf '%s\n' "$1" | grep -o -e '--[a-z][a-z0-9-]*' -e '^ *-[a-zA-Z]\b' -e '[[ ]-[a-zA-Z]\b' |
		sed 's/^[[ ]*//' | sort -u
}

# _gpustep_reply WORDS: COMPREPLY = the words (one a line) that start with
# $cur. When COMP_WORDBREAKS splits at '=' (bash's default), bash replaces
# only the part after the last '=', so that prefix is taken off each word.
_gpustep_reply()
{
	local IFS=$'\n'
	COMPREPLY=($(compgen -W "$1" -- "$cur"))
	if [[ $cur == *=* && $COMP_WORDBREAKS == *=* ]]; then
		local pre=${cur%=*}=
		COMPREPLY=("${COMPREPLY[@]#"$pre"}")
	fi
}

# _gpustep_files [EXT...]: files (ending .EXT, any of them) and folders.
_gpustep_files()
{
	local IFS=$'\n' e
	compopt -o filenames 2>/dev/null
	if (($#)); then
		for e; do
			COMPREPLY+=($(compgen -f -X "!*.$e" -- "$cur"))
		done
		COMPREPLY+=($(compgen -d -- "$cur"))
	else
		COMPREPLY+=($(compgen -f -- "$cur"))
	fi
}

# -s PATH=VALUE: the config keys, then an enum key's values.
_gpustep_config_key()
{
	if [[ $cur == *=* ]]; then
		local key=${cur%%=*} range
		range=$(_gpustep_run --list-config | awk -v k="$key" '$1 == k { for (i = 3; i <= NF; i++) if ($i ~ /\|/) { print $i; exit } }')
		[[ -n $range ]] && _gpustep_reply "$(printf '%s\n' "$range" | tr '|' '\n' | sed "s|^|$key=|")"
		return
	fi
	_gpustep_reply "$(_gpustep_first_column --list-config | sed 's/$/=/')"
	compopt -o nospace 2>/dev/null
}

# -p NAME=VALUE: the parameters of the workload given by -w (default vecadd).
_gpustep_kernel_param()
{
	[[ $cur == *=* ]] && return
	local i w=
	for ((i = 1; i < ${#words[@]} - 1; i++)); do
		case ${words[i]} in
		-w | --workload) w=${words[i + 1]} ;;
		--workload=*) w=${words[i]#--workload=} ;;
		esac
	done
	_gpustep_reply "$(_gpustep_first_column ${w:+-w "$w"} --list-params | sed 's/$/=/')"
	compopt -o nospace 2>/dev/null
}

# The argument of an option; returns 1 when prev takes none.
_gpustep_option_arg()
{
	case $prev in
	-w | --workload)
		_gpustep_reply "$(_gpustep_first_column --list-kernels)"
		_gpustep_files json
		;;
	-s | --set) _gpustep_config_key ;;
	-p | --param) _gpustep_kernel_param ;;
	-x | --batch | --stats | --session | --dram-trace | --trace-out | --csv | --json | --db | --md | -o)
		_gpustep_files
		;;
	--protocol) _gpustep_reply $'si\nnmoesi\nmoesi' ;;
	--semantics) _gpustep_reply $'gpustep\nreference' ;;
	--emit) _gpustep_reply $'parallel\nslurm' ;;
	--agg) _gpustep_reply $'mean\ngeomean\nsum' ;;
	--log) _gpustep_reply $'x\ny\nxy' ;;
	--seed | --snapshot-mb | --max-memory | --trace-from | --trace-to | --trace-max-events | --sample | \
		--sample-stats | --threads | --accesses | -j | --job | --x | --y | --by | --rows | --cols | --base | --fmt | \
		--lat-min | --lat-sigma | --lat-hit | --hist-cap | --l1s | --lines | --l1-ways | --l2-lines | \
		--store-pct | --atomic-pct | --delay | --kernel-every)
		;; # a number or a name gpustep cannot list: nothing to offer
	*) return 1 ;;
	esac
	return 0
}

_gpustep()
{
	local cur prev words cword
	# Words split at blanks only (so -s a.b=c stays one word), up to the cursor.
	local line=${COMP_LINE:0:COMP_POINT}
	read -r -a words <<<"$line"
	[[ $line == *[[:blank:]] || ${#words[@]} -eq 0 ]] && words+=("")
	cword=$((${#words[@]} - 1))
	cur=${words[cword]}
	prev=
	((cword > 0)) && prev=${words[cword - 1]}
	local _gpustep_bin=${words[0]/#\~/$HOME}
	COMPREPLY=()

	local sub=
	((cword > 1)) && case ${words[1]} in
	model | sweep | lesson | stress-coherence | whatif | diff) sub=${words[1]} ;;
	esac

	_gpustep_option_arg && return

	case $sub in
	"")
		if [[ $cur == -* ]]; then
			_gpustep_reply "$(_gpustep_options "$(_gpustep_run --help | sed '/^Subcommands:/,$d')")"
		elif ((cword == 1)); then
			local subs
			subs=$(_gpustep_run --help | awk '/^Subcommands:/ { on = 1 } on && /^  gpustep [a-z]/ && !seen[$2]++ { print $2 }')
			_gpustep_reply "$subs"$'\n'"$(_gpustep_first_column --list-presets)"
			_gpustep_files json ini config
		else
			_gpustep_reply "$(_gpustep_first_column --list-presets)"
			_gpustep_files json ini config
		fi
		;;
	model | stress-coherence | whatif)
		if [[ $cur == -* ]]; then
			_gpustep_reply "$(_gpustep_options "$(_gpustep_usage "$sub")")"
		elif [[ $sub == model || $sub == whatif ]]; then
			_gpustep_reply "$(_gpustep_first_column --list-presets)"
			_gpustep_files json config
		fi
		;;
	sweep)
		if [[ $cur == -* ]]; then
			_gpustep_reply "$(_gpustep_options "$(_gpustep_usage sweep)")"
		else
			((cword == 2)) && _gpustep_reply $'collect\ntable\nplot'
			_gpustep_files json
		fi
		;;
	diff)
		if [[ $cur == -* ]]; then
			_gpustep_reply "$(_gpustep_options "$(_gpustep_usage diff)")"
		else
			_gpustep_files json
		fi
		;;
	lesson)
		local names
		names=$(_gpustep_run lesson | awk '/^ *[0-9]+\. [a-z]/ && $4 == "steps" { print $2 }')
		if [[ $cur == -* ]]; then
			_gpustep_reply $'--check\n--batch'
		elif ((cword == 2)); then
			_gpustep_reply "$names"$'\nreset'
			_gpustep_files json
		elif [[ $prev == reset || $prev == --check ]]; then
			_gpustep_reply "$names"
			_gpustep_files json
		fi
		;;
	esac
}
complete -F _gpustep gpustep
