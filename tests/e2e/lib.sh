# lib.sh: helpers for end-to-end tests (sourced by tests/e2e/*.sh).
#
#   . "$(dirname "$0")/lib.sh"          BIN is $1 (absolute path to gpustep)
#   tmux_start 100 30 "$BIN"            the program in a detached tmux, fixed size
#   tmux_send 'step 10' Enter           tmux send-keys
#   tmux_wait_for 'cycle 10' 5          wait until the screen shows text (seconds)
#   tmux_capture                        the screen as text
#   tmux_kill                           (also done on exit)
#   fail "message"                      print, dump the screen if any, exit 1
#   expect_contains "$out" "text"       fail unless $out contains text
#   stats_run PRESET NAME KERNEL OPTS   a headless run, its stats to $E2E_TMP/NAME.json
#   stats_num FILE KEY                  a number from a --stats JSON file (fail if absent)
#
# Every test script gets its own tmux server (socket gpustep-test-PID), so
# tests can run in parallel and never touch the user's tmux.
BIN=${1:?usage: $0 /path/to/gpustep}
case "$BIN" in /*) ;; *) BIN="$(pwd)/$BIN" ;; esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
TMUX_SOCK="gpustep-test-$$"
TMUX_TARGET="t"
TMUX_STARTED=0
E2E_TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpustep-e2e.XXXXXX") || exit 1

cleanup() {
	[ "$TMUX_STARTED" = 1 ] && tmux -L "$TMUX_SOCK" kill-server >/dev/null 2>&1
	rm -rf "$E2E_TMP"
}
trap cleanup EXIT
trap 'exit 2' INT TERM # cleanup runs on exit; without the exit the script would go on without its files

tmux_start() {
	w=$1
	h=$2
	shift 2
	unset TMUX
	# A server killed just before (tmux_kill) may still be exiting: a client that
	# reaches it fails, so retry for up to 5 s before giving up.
	tries=0
	until tmux -L "$TMUX_SOCK" -f /dev/null new-session -d -s "$TMUX_TARGET" -x "$w" -y "$h" "$*" 2>"$E2E_TMP/tmux.err"; do
		tries=$((tries + 1))
		[ "$tries" -lt 50 ] || fail "tmux did not start: $(cat "$E2E_TMP/tmux.err")"
		sleep 0.1
	done
	tmux -L "$TMUX_SOCK" set-option -t "$TMUX_TARGET" remain-on-exit on >/dev/null 2>&1
	TMUX_STARTED=1
}

tmux_send() { tmux -L "$TMUX_SOCK" send-keys -t "$TMUX_TARGET" "$@"; }

tmux_capture() { tmux -L "$TMUX_SOCK" capture-pane -p -t "$TMUX_TARGET"; }

tmux_resize() { tmux -L "$TMUX_SOCK" resize-window -t "$TMUX_TARGET" -x "$1" -y "$2"; }

# tmux_wait_for TEXT [SECONDS]: 0 once TEXT is on screen, 1 on timeout.
tmux_wait_for() {
	limit=$(( ${2:-5} * 10 ))
	i=0
	while [ "$i" -lt "$limit" ]; do
		tmux_capture 2>/dev/null | grep -F -q -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# tmux_wait_exit [SECONDS]: 0 once the program in the pane has exited.
tmux_wait_exit() {
	limit=$(( ${1:-5} * 10 ))
	i=0
	while [ "$i" -lt "$limit" ]; do
		[ "$(tmux -L "$TMUX_SOCK" display-message -p -t "$TMUX_TARGET" '#{pane_dead}' 2>/dev/null)" = 1 ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

tmux_kill() {
	tmux -L "$TMUX_SOCK" kill-server >/dev/null 2>&1
	# kill-server returns before the server has gone: wait (up to 5 s) until
	# no server answers on the socket, so a following tmux_start gets a new one.
	i=0
	while [ "$i" -lt 50 ] && tmux -L "$TMUX_SOCK" list-sessions >/dev/null 2>&1; do
		sleep 0.1
		i=$((i + 1))
	done
	TMUX_STARTED=0
}

fail() {
	echo "  $*"
	if [ "$TMUX_STARTED" = 1 ]; then
		echo "  --- screen ---"
		tmux_capture 2>/dev/null | sed 's/^/  |/'
	fi
	exit 1
}

expect_contains() {
	case "$1" in
	*"$2"*) ;;
	*) fail "expected output to contain '$2', got: $(printf '%s' "$1" | head -20)" ;;
	esac
}

expect_not_contains() {
	case "$1" in
	*"$2"*) fail "expected output not to contain '$2'" ;;
	*) ;;
	esac
}

# tmux_wait_gone TEXT [SECONDS]: 0 once TEXT is no longer on screen, 1 on timeout.
tmux_wait_gone() {
	limit=$(( ${2:-5} * 10 ))
	i=0
	while [ "$i" -lt "$limit" ]; do
		tmux_capture 2>/dev/null | grep -F -q -- "$1" || return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# Deterministic "after this command" reads (no sleeps): tmux_mark N types a
# command that fails with a unique message (unknown stat 'e2e_mark_N') and
# waits for it; tmux_after_mark N prints what the screen shows below that
# message. Commands run in order, so whatever was typed before the mark has
# printed by the time the mark's message is on screen.
tmux_mark() {
	tmux_send -l "print e2e_mark_$1" && tmux_send Enter
	tmux_wait_for "unknown stat 'e2e_mark_$1'" "${2:-10}"
}
tmux_after_mark() {
	tmux_capture | awk -v m="unknown stat 'e2e_mark_$1'" 'index($0, m) { buf = ""; f = 1; next } f { buf = buf $0 "\n" } END { printf "%s", buf }'
}
# tmux_wait_after_mark N REGEX [SECONDS]: until a line below mark N matches.
tmux_wait_after_mark() {
	limit=$(( ${3:-5} * 10 ))
	i=0
	while [ "$i" -lt "$limit" ]; do
		tmux_after_mark "$1" | grep -E -q -- "$2" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# stats_run PRESET NAME KERNEL OPTIONS...: `$BIN PRESET -w KERNEL OPTIONS --run`,
# its stats to $E2E_TMP/NAME.json; fails the test if the run fails.
stats_run() {
	sr_p=$1 sr_n=$2 sr_k=$3
	shift 3
	"$BIN" "$sr_p" -w "$sr_k" "$@" --run --stats "$E2E_TMP/$sr_n.json" >/dev/null 2>"$E2E_TMP/err" ||
		fail "$sr_n: exit $? ($(cat "$E2E_TMP/err"))"
}

# stats_num FILE KEY: the number KEY holds in the --stats JSON FILE.
stats_num() {
	sn_v=$(sed -n "s/^ *\"$2\": \([-0-9.e+]*\),\{0,1\}$/\1/p" "$1")
	[ -n "$sn_v" ] || fail "$1: no stat $2"
	echo "$sn_v"
}
