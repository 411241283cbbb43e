#!/bin/bash
# Proves the Slurm jobs on this machine: installs Slurm and munge from the Debian packages,
# starts a one-node cluster on localhost, submits compare.sbatch as an array job (task k runs
# `--shard k/N`), waits, merges with merge.sbatch, and checks that the merged report is
# byte-identical to a single-machine run. Everything it started, wrote or installed is
# removed at the end (packages only if it installed them).
#
#   sudo examples/cluster/prove-slurm.sh [SHARDS] [GAMES]      # defaults: 4 shards, 6000 games
#
# Needs root (apt-get, daemons), a Debian/Ubuntu system and no Slurm cluster already running.
# Not part of .ci/run. MEEPLAB=/path/to/meeplab skips the release build.
set -euo pipefail

SHARDS=${1:-4}
GAMES=${2:-6000}
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
WORK=$(mktemp -d /tmp/meeplab-slurm.XXXXXX)
CONF=/etc/slurm
INSTALLED=()
PIDS=()
CONF_EXISTED=$([ -d "$CONF" ] && echo yes || echo no)

say() { printf '\n== %s\n' "$*"; }

cleanup() {
  set +e
  say "cleaning up"
  scancel --user="$(id -un)" >/dev/null 2>&1
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done
  sleep 1
  for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null; done
  cd /
  rm -rf "$WORK"
  if [ -f "$CONF/slurm.conf.meeplab-proof" ]; then rm -f "$CONF/slurm.conf" "$CONF/slurm.conf.meeplab-proof"; fi
  if [ ${#INSTALLED[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "${INSTALLED[@]}" >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get autoremove --purge -y -qq >/dev/null
    # packages removed with their configuration left behind
    dpkg -l | awk '/^rc/ && /slurm|munge/ { print $2 }' | xargs -r dpkg --purge >/dev/null
    rm -rf /var/spool/slurmctld /var/spool/slurmd /etc/munge /var/lib/munge /var/log/munge
  fi
  [ "$CONF_EXISTED" = no ] && rmdir "$CONF" 2>/dev/null
}
trap cleanup EXIT

[ "$(id -u)" -eq 0 ] || { echo "run as root (it installs packages and starts daemons)" >&2; exit 2; }

say "installing slurm and munge (Debian packages)"
for pkg in munge slurmctld slurmd slurm-client; do
  dpkg -s "$pkg" >/dev/null 2>&1 || INSTALLED+=("$pkg")
done
if [ ${#INSTALLED[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${INSTALLED[@]}" >/dev/null
fi

say "starting munge"
mkdir -p /etc/munge /run/munge /var/lib/munge /var/log/munge
[ -s /etc/munge/munge.key ] || dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge
chmod 0700 /etc/munge; chmod 0400 /etc/munge/munge.key
runuser -u munge -- /usr/sbin/munged
PIDS+=("$(cat /run/munge/munged.pid)")
munge -n | unmunge >/dev/null

say "one-node cluster on localhost"
HOST=$(hostname -s)
CPUS=$(nproc)
MEM=$(awk '/MemTotal/ { print int($2 / 1024) - 256 }' /proc/meminfo)
mkdir -p "$CONF" /var/spool/slurmctld /var/spool/slurmd
[ -e "$CONF/slurm.conf" ] && { echo "$CONF/slurm.conf exists: a cluster is configured here; not touching it" >&2; exit 2; }
cat > "$CONF/slurm.conf" <<CONFEOF
ClusterName=meeplab-proof
SlurmctldHost=$HOST
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
ReturnToService=2
MpiDefault=none
NodeName=$HOST CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=proof Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONFEOF
touch "$CONF/slurm.conf.meeplab-proof"
slurmctld -i; sleep 1; PIDS+=("$(pgrep -n -x slurmctld)")
slurmd; sleep 1; PIDS+=("$(pgrep -n -x slurmd)")
for _ in $(seq 60); do
  sinfo -h -o %T 2>/dev/null | grep -qx idle && break
  scontrol update nodename="$HOST" state=resume >/dev/null 2>&1 || true
  sleep 1
done
sinfo -h -o %T | grep -qx idle || { echo "the node never became idle" >&2; sinfo; exit 1; }

say "meeplab"
if [ -z "${MEEPLAB:-}" ]; then
  (cd "$REPO" && cargo build --release --quiet)
  MEEPLAB="$REPO/target/release/meeplab"
fi
mkdir -p "$WORK/bin" && cp "$MEEPLAB" "$WORK/bin/meeplab"
export PATH="$WORK/bin:$PATH"

export RULES_A="$REPO/rulesets/goldmines-hig-2012.rules" RULES_B="$REPO/rulesets/goldmines-rgg.rules"
export GAMES PLAYERS=3 SEED=2024 POLICY=random
cd "$WORK"
mkdir -p logs shards

say "array job: $SHARDS shards of $GAMES games"
array=$(sbatch --parsable --export=ALL --cpus-per-task=1 --mem=256M --array="1-$SHARDS" "$HERE/compare.sbatch")
merge=$(sbatch --parsable --export=ALL --mem=256M --dependency="afterok:${array%%_*}" "$HERE/merge.sbatch")
for _ in $(seq 1800); do
  squeue -h -j "${array%%_*},$merge" 2>/dev/null | grep -q . || break
  sleep 1
done
cat logs/* || true
[ -f report/report.json ] || { echo "the merge job wrote no report" >&2; exit 1; }

say "single-machine run"
meeplab compare "$RULES_A" "$RULES_B" --games "$GAMES" --players 3 --seed 2024 --policy random \
  --out single >/dev/null

say "comparing"
status=0
for f in single/*; do
  name=$(basename "$f")
  case "$name" in
    timing.json) continue ;;
    accumulator.json)  # the spec's command line names the shard run; everything else agrees
      cmp <(grep -v '"command_line"' "$f") <(grep -v '"command_line"' "report/$name") || status=1 ;;
    *) cmp "$f" "report/$name" || status=1 ;;
  esac
done
if [ "$status" -eq 0 ]; then
  echo "PASS: the merged Slurm report is byte-identical to the single-machine run ($(ls single | wc -l) files)"
else
  echo "FAIL: the merged report differs from the single-machine run" >&2
fi
exit "$status"
