#!/usr/bin/env bash
# Runs one fuzz target for a while (default an hour), in fork mode: a crash, a timeout or
# running out of memory is saved in artifacts/TARGET/ and the run goes on. New inputs go to
# work/TARGET (git-ignored); the committed corpus/TARGET is read as seeds. The last line of
# the log gives the executions (`#N`), the time and the crashes.
# Usage: fuzz/run.sh TARGET [SECONDS] > fuzz/logs/TARGET.log 2>&1 &
set -euo pipefail
cd "$(dirname "$0")"
target=$1
seconds=${2:-3600}
mkdir -p "work/$target" logs
dict=()
if [ -f "dict/$target.dict" ]; then
    dict=("-dict=dict/$target.dict")
fi
exec cargo fuzz run -s none --no-trace-compares "$target" "work/$target" "corpus/$target" -- \
    "${dict[@]}" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -max_total_time="$seconds" \
    -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1
