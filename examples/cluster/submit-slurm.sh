#!/bin/bash
# Submits the compare array (N shards, default 16) and the merge that waits for it.
#   ./submit-slurm.sh [N]
set -euo pipefail
n=${1:-16}
mkdir -p logs shards
array_id=$(sbatch --parsable --array="1-$n" compare.sbatch)
sbatch --dependency="afterok:${array_id%%_*}" merge.sbatch
echo "compare array $array_id ($n shards) queued; merge queued after it"
