#!/usr/bin/env bash
# Run make targets one after another (the stages of `make test`), time each, and print a
# summary at the end: wall time, and CPU time (user + system) of everything the stage ran
# and waited for (pytest, its xdist workers, their Celery workers; not the PostgreSQL and
# Redis servers). Every stage runs even if one before it failed; the exit status is
# non-zero if any failed.
#
# Targets joined by "+" run at the same time (small single-threaded stages that would
# leave a core idle one after the other); their output is shown when all have finished,
# one target after the other.
#
#   tests/stages.sh lint+test-embedded test-parallel test-serial
set -u
cd "$(dirname "$0")/.."

# MAKE may carry options, e.g. MAKE="make -o .venv/bin/.installed" to skip the venv check.
MAKE_CMD=${MAKE:-make}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rows=()
failed=0
started=$SECONDS
load_at_start=$(cut -d' ' -f1-3 /proc/loadavg)
TIMEFORMAT="%R %U %S"

# One target, timed into $work/<target>.time; its output to stdout/stderr as it comes.
run_target() {
    local target=$1
    # `time` writes to the group's stderr; the stage's own stderr goes to the terminal.
    { time $MAKE_CMD --no-print-directory "$target" 2>&4; } 4>&2 2>"$work/$target.time"
}

# The summary row of a finished target.
add_row() {
    local target=$1 status=$2 wall user sys cpu result=ok
    read -r wall user sys <"$work/$target.time"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.0f", u + s }')
    if [ "$status" -ne 0 ]; then
        result="FAILED ($status)"
        failed=1
    fi
    rows+=("$(printf '%-16s %8.0f s %8s s   %s' "$target" "$wall" "$cpu" "$result")")
}

for group in "$@"; do
    IFS=+ read -r -a targets <<<"$group"
    if [ "${#targets[@]}" -eq 1 ]; then
        run_target "$group"
        add_row "$group" $?
        continue
    fi
    group_started=$SECONDS
    pids=()
    statuses=()
    for target in "${targets[@]}"; do
        run_target "$target" >"$work/$target.out" 2>&1 &
        pids+=($!)
    done
    for i in "${!targets[@]}"; do
        wait "${pids[$i]}"
        statuses[i]=$?
    done
    for i in "${!targets[@]}"; do
        cat "$work/${targets[$i]}.out"
        add_row "${targets[$i]}" "${statuses[$i]}"
    done
    rows+=("$(printf '%-16s %8d s   (%s at the same time)' "" "$((SECONDS - group_started))" "${targets[*]}")")
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
