#!/bin/sh
# tests/slurm/run.sh BIN: `make test-slurm`. Starts a real single-node Slurm
# (Debian slurm-wlm + munge) on this machine with a private config, munge
# socket and state under a temp directory, submits a 4-task sweep array made
# by `gpustep sweep --emit slurm`, waits for it (sbatch --wait), checks every
# job's result, resubmits (every task must skip), and stops the daemons it
# started. Needs root (munged, slurmd); installs slurm-wlm and munge with
# apt-get when they are missing. Not part of `make test` (docs/TESTING.md).
BIN=${1:?usage: $0 /path/to/gpustep}
case "$BIN" in /*) ;; *) BIN="$(pwd)/$BIN" ;; esac
fail() {
	echo "FAIL test-slurm: $*"
	for f in "$T"/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -20 "$f"; }; done
	exit 1
}
if [ "$(id -u)" != 0 ]; then
	echo "test-slurm: needs root (it runs munged and slurmd); as root: make test-slurm" >&2
	exit 1
fi
if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
	echo "test-slurm: installing slurm-wlm munge" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y slurm-wlm munge >/dev/null 2>&1 ||
		{ apt-get update >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y slurm-wlm munge >/dev/null 2>&1; } ||
		{ echo "test-slurm: apt-get install -y slurm-wlm munge failed" >&2; exit 1; }
fi
T=$(mktemp -d /tmp/gpustep-slurm.XXXXXX) || exit 1
chmod 755 "$T"
PIDS=""
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	for p in $PIDS; do
		i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 2' INT TERM # cleanup runs on exit; without the exit the script would go on without its files
HOST=$(hostname -s)
CPUS=$(nproc)
PORT=$((17000 + $$ % 1000))

# munge with its own key and socket
mkdir -p "$T/munge" && chmod 700 "$T/munge"
dd if=/dev/urandom of="$T/munge/key" bs=1024 count=1 2>/dev/null && chmod 600 "$T/munge/key"
munged --force --socket="$T/munge/sock" --key-file="$T/munge/key" --pid-file="$T/munge/pid" \
	--log-file="$T/munged.log" --seed-file="$T/munge/seed" || fail "munged did not start"
i=0
until [ -s "$T/munge/pid" ] || [ $i -ge 50 ]; do sleep 0.1; i=$((i + 1)); done
PIDS="$PIDS $(cat "$T/munge/pid")"

mkdir -p "$T/state" "$T/spool"
cat >"$T/slurm.conf" <<EOF
ClusterName=gpustep-test
SlurmctldHost=$HOST
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/sock
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$HOST CPUs=$CPUS State=UNKNOWN
PartitionName=test Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$T/slurm.conf"
slurmctld -D -f "$SLURM_CONF" >"$T/slurmctld.out.log" 2>&1 &
PIDS="$PIDS $!"
slurmd -D -f "$SLURM_CONF" >"$T/slurmd.out.log" 2>&1 &
PIDS="$PIDS $!"
i=0
until sinfo -h -o '%T' 2>/dev/null | grep -q idle; do
	sleep 0.5
	i=$((i + 1))
	[ $i -lt 60 ] || fail "the node never became idle: $(sinfo 2>&1)"
done
echo "test-slurm: slurmctld and slurmd up on $HOST ($CPUS CPUs), $(sinfo -h -o '%P %T')"

cat >"$T/s.json" <<'EOF'
{"workloads": ["vecadd", "strided"], "seeds": [1, 2]}
EOF
"$BIN" sweep "$T/s.json" --emit slurm "$T/sl" >"$T/emit.log" 2>&1 || fail "emit: $(cat "$T/emit.log")"
grep -q '^#SBATCH --array=0-3$' "$T/sl/sweep.sbatch" || fail "not a 4-task array: $(cat "$T/sl/sweep.sbatch")"
sbatch --wait "$T/sl/sweep.sbatch" >"$T/sbatch.log" 2>&1 || fail "sbatch --wait: $(cat "$T/sbatch.log")"
echo "test-slurm: $(cat "$T/sbatch.log")"
n=$(ls "$T/s-results/jobs" | grep -c '^[0-9a-f]*\.json$')
[ "$n" = 4 ] || fail "$n results after the array: $(ls "$T/s-results/jobs"; cat "$T"/sl/slurm-*.out)"
[ "$(ls "$T"/sl/slurm-*_*.out | wc -l)" = 4 ] || fail "expected 4 task logs: $(ls "$T/sl")"
grep -q ': done$' "$T"/sl/slurm-*_3.out || fail "task 3: $(cat "$T"/sl/slurm-*_3.out)"
"$BIN" sweep collect "$T/s.json" 2>"$T/collect.log" || fail "collect"
grep -q "4 jobs: 4 done, 0 failed" "$T/collect.log" || fail "collect: $(cat "$T/collect.log")"
# resubmitted, every task finds its result and skips
rm -f "$T"/sl/slurm-*.out
sbatch --wait "$T/sl/sweep.sbatch" >"$T/sbatch2.log" 2>&1 || fail "second sbatch: $(cat "$T/sbatch2.log")"
[ "$(cat "$T"/sl/slurm-*.out | grep -c 'result exists, skipped')" = 4 ] || fail "resubmission reran jobs: $(cat "$T"/sl/slurm-*.out)"
[ "$(grep -c '^done ' "$T/s-results/sweep.log")" = 4 ] || fail "sweep.log: $(cat "$T/s-results/sweep.log")"
echo "test-slurm: passed (4-task array ran and resumed on a real single-node Slurm)"
