#!/usr/bin/env bash
# Run make targets one after another (the stages of `make test`), time each, and print a
# summary at the end: wall time, and CPU time (user + system) of everything the stage ran
# and waited for (pytest, its xdist workers, their Celery workers; not the PostgreSQL and
# Redis servers). Every stage runs even if one before it failed; the exit status is
# non-zero if any failed.
#
#   tests/stages.sh lint test-embedded test-parallel test-serial
set -u
cd "$(dirname "$0")/.."

# MAKE may carry options, e.g. MAKE="make -o .venv/bin/.installed" to skip the venv check.
MAKE_CMD=${MAKE:-make}
times_file=$(mktemp)
trap 'rm -f "$times_file"' EXIT
rows=()
failed=0
started=$SECONDS
load_at_start=$(cut -d' ' -f1-3 /proc/loadavg)

for target in "$@"; do
    TIMEFORMAT="%R %U %S"
    # `time` writes to the group's stderr; the stage's own stderr goes to the terminal.
    { time $MAKE_CMD --no-print-directory "$target" 2>&4; } 4>&2 2>"$times_file"
    status=$?
    read -r wall user sys <"$times_file"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.0f", u + s }')
    result=ok
    if [ "$status" -ne 0 ]; then
        result="FAILED ($status)"
        failed=1
    fi
    rows+=("$(printf '%-16s %8.0f s %8s s   %s' "$target" "$wall" "$cpu" "$result")")
done

echo
echo "=== Stages: wall, CPU (user + system) ==="
for row in "${rows[@]}"; do
    echo "$row"
done
printf '%-16s %8d s\n' "total" "$((SECONDS - started))"
# The machine is shared: the load beside the timings says how much they are worth.
echo "load average (1/5/15 min): $load_at_start at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
exit "$failed"
