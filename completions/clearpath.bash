# clearpath bash completion: commands, options and values, read from the binary's own --help.
#
# Commands, workloads, options and -f functions are asked of the clearpath
# being completed (the word typed, so ./clearpath works in a build tree) at
# completion time, so a new command, option or clearing strategy needs no
# edit here.  Only the values of enumerated options are listed below.

# Run the clearpath being completed; no output when it is missing or fails.
_clearpath_run()
{
	local bin=${COMP_WORDS[0]}

	bin=${bin/#\~/$HOME}
	"$bin" "$@" 2>/dev/null
}

# The command names of `clearpath --help`: the indented first words under "commands:".
_clearpath_commands()
{
	_clearpath_run --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p'
}

# The options a help text names: long ones always, short ones too when $1 is "-".
_clearpath_options()
{
	local want=$1 text
	shift
	text=$(_clearpath_run "$@" --help)
	grep -oE -- '--[a-z][a-z_-]*' <<<"$text" | sort -u
	[[ $want == - ]] && sed -n 's/^ *\(-[a-zA-Z]\), .*/\1/p' <<<"$text"
}

# The -f names of one workload, from `clearpath bench COLLECTION WORKLOAD -f help`.
_clearpath_functions()
{
	echo all all+ help
	_clearpath_run bench "$1" "$2" -f help | sed -n 's/^\t\([^ ]*\) \.\.\. .*/\1/p'
}

# Add the words of $1 (none has a space) that start with $cur to COMPREPLY.
_clearpath_add()
{
	COMPREPLY+=($(compgen -W "$1" -- "$cur"))
}

# Files (and directories) matching glob $1, e.g. '*.yaml'; any file without $1.
_clearpath_files()
{
	local IFS=$'\n'

	if [[ -n $1 ]]; then
		COMPREPLY+=($(compgen -d -- "$cur") $(compgen -f -X "!$1" -- "$cur"))
	else
		COMPREPLY+=($(compgen -f -- "$cur"))
	fi
	compopt -o filenames 2>/dev/null
}

# Values of the option $prev for command $1; returns 1 when $prev takes no value.
_clearpath_value()
{
	case $prev in
	--store | --into | --ssh-config | -o | --output) _clearpath_files ;;
	--format)
		case $1 in
		bench) _clearpath_add 'default simple json' ;;
		doctor | campaign) _clearpath_add 'text json' ;;
		list) _clearpath_add 'table json' ;;
		export) _clearpath_add 'csv json' ;;
		report) _clearpath_add 'html svg png' ;;
		*) _clearpath_add 'box grid compact markdown csv json' ;;
		esac ;;
	--columns)
		_clearpath_add 'swprofile sut param:f param:p param:s param:k param:l param:then'
		declare -F __ltrim_colon_completions >/dev/null && __ltrim_colon_completions "$cur" ;;
	--rule) _clearpath_add 'nested fastpath' ;;
	--color) _clearpath_add 'auto always never' ;;
	--units) _clearpath_add 'human raw' ;;
	--thp) _clearpath_add 'system always never' ;;
	--then) _clearpath_add 'none read write' ;;
	--backing) _clearpath_add 'auto hugetlb thp' ;;
	--scale) _clearpath_add 'auto 2 4 8 16 32 64' ;;
	-p | --page) _clearpath_add '4KB 2MB 1GB' ;;
	--hugepages) _clearpath_add '2MB: 1GB:'; compopt -o nospace 2>/dev/null ;;
	--for) _clearpath_files '*.yaml' ;;
	--host) ! declare -F _known_hosts_real >/dev/null || _known_hosts_real -a -- "$cur" ;;
	--lava-token-file) _clearpath_files '*' ;;
	--warmups | --repeats | --sessions | --session | --swprofile | --sut | --max-failures | --seed | \
	--base | --benchmark | --min-effect | --alpha | --fdr | --needs-memory | --boots | --release | --cmdline | --width | \
	--boot-timeout | --lava | --device-type | --tags | --lava-devices | --lava-identity | --lava-retries | \
	--lava-queue-timeout | --lava-clearpath | --owner | --writer | --reader | \
	-s | --size | -l | --nr_loops | -k | --chunk | --extent | -r | --randomize | -t | --threads) ;;
	*) return 1 ;;
	esac
	return 0
}

# A bench command line in "${words[@]}" (from the collection on, --format taken out).
_clearpath_bench()
{
	local -a pos=()
	local w

	for w in "${words[@]}"; do
		[[ $w == -* ]] && break
		pos+=("$w")
	done
	case ${#pos[@]} in
	0) _clearpath_add "$(_clearpath_run bench --list | awk '/^  [a-z]/{print $1}' | sort -u)" ;;
	1) _clearpath_add "$(_clearpath_run bench --list | awk -v c="${pos[0]}" '$1 == c {print $2}') all" ;;
	*)
		case $prev in
		-f | --function) _clearpath_add "$(_clearpath_functions "${pos[0]}" "${pos[1]}")" ;;
		*) _clearpath_value bench ||
			[[ $cur != -* ]] || _clearpath_add "$(_clearpath_options - bench "${pos[0]}" "${pos[1]}")" ;;
		esac ;;
	esac
}

_clearpath()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local -a words=()
	local cmd='' i=1 w

	COMPREPLY=()
	# `--opt=value`: bash splits at '=', so the option is one word further back
	if [[ $cur == = ]]; then
		cur=''
	elif [[ $prev == = ]]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	while ((i < COMP_CWORD)); do
		w=${COMP_WORDS[i]}
		((i++))
		if [[ -z $cmd ]]; then
			[[ $w == -* ]] || cmd=$w
			continue
		fi
		words+=("$w")
	done
	# words: the completed words after the command; cur is being typed
	case $cmd in
	'') _clearpath_add "$(_clearpath_commands) --help --version" ;;
	help) _clearpath_add "$(_clearpath_commands)" ;;
	bench)
		# --format F may stand anywhere on a bench line; perf's -f F and -r N before the collection
		local -a rest=()
		for ((i = 0; i < ${#words[@]}; i++)); do
			if [[ ${words[i]} == --format ]] || [[ ${#rest[@]} -eq 0 && ${words[i]} =~ ^(-f|-r|--repeat)$ ]]; then
				((i++))
			elif [[ ${words[i]} != = ]]; then
				rest+=("${words[i]}")
			fi
		done
		words=("${rest[@]}")
		if [[ $prev == --format ]]; then
			_clearpath_value bench
		elif [[ ${#words[@]} -eq 0 && $prev == -f ]]; then
			_clearpath_add 'default simple json'
		elif [[ ${#words[@]} -eq 0 && $prev =~ ^(-r|--repeat)$ ]]; then
			:
		elif [[ ${#words[@]} -eq 0 && $cur == -* ]]; then
			_clearpath_add '-f --format -r --repeat --list --help'
		else
			_clearpath_bench
		fi ;;
	run)
		for ((i = 0; i < ${#words[@]}; i++)); do
			if [[ ${words[i]} == -- ]]; then
				words=("${words[@]:i+1}")
				_clearpath_bench
				return 0
			fi
		done
		_clearpath_value run || _clearpath_add "$(_clearpath_options '' run) --" ;;
	plan)
		if [[ ${#words[@]} -eq 0 ]]; then
			_clearpath_add 'validate show run'
		elif ! _clearpath_value plan; then
			# only `plan run` has a --help of its own; show has --scale alone
			case ${words[0]}:$cur in
			run:-*) _clearpath_add "$(_clearpath_options '' plan run)" ;;
			show:-*) _clearpath_add '--scale' ;;
			*:-*) ;;
			*) _clearpath_files '*.y*ml' ;;
			esac
		fi ;;
	campaign)
		if [[ ${#words[@]} -eq 0 ]]; then
			_clearpath_add 'start status continue abort fake-boot'
		elif ! _clearpath_value campaign; then
			case ${words[0]}:$cur in
			*:-*) _clearpath_add "$(_clearpath_options '' campaign)" ;;
			start:*) _clearpath_files '*.y*ml' ;;
			esac
		fi ;;
	list)
		if [[ ${#words[@]} -eq 0 && $cur != -* ]]; then
			_clearpath_add 'suts swprofiles benchmarks sessions'
		else
			_clearpath_value list || _clearpath_add "$(_clearpath_options '' list)"
		fi ;;
	export | merge | import)
		if ! _clearpath_value "$cmd"; then
			[[ $cur == -* ]] && _clearpath_add "$(_clearpath_options '' "$cmd")"
			[[ $cur == -* ]] || _clearpath_files
		fi ;;
	store)
		if [[ ${#words[@]} -eq 0 && $cur != -* ]]; then
			_clearpath_add 'roles'
		elif ! _clearpath_value store; then
			_clearpath_add "$(_clearpath_options '' store roles)"
		fi ;;
	remote)
		if [[ ${#words[@]} -eq 0 && $cur != -* ]]; then
			_clearpath_add 'check'
		elif ! _clearpath_value remote; then
			if [[ $cur == -* ]]; then
				_clearpath_add "$(_clearpath_options '' remote check)"
			elif declare -F _known_hosts_real >/dev/null; then
				_known_hosts_real -a -- "$cur"
			fi
		fi ;;
	*) _clearpath_value "$cmd" || _clearpath_add "$(_clearpath_options '' "$cmd")" ;;
	esac
	return 0
}

complete -F _clearpath clearpath
