#!/usr/bin/env bash
# Runs one fuzz target for a while (default an hour). New inputs go to work/TARGET
# (git-ignored); the committed corpus/TARGET is read as seeds. The last lines of the log give
# the executions (`#N`) and the time.
#
# MODE `fork` (the default) runs the target in a child process: a crash, a timeout or running
# out of memory is saved in artifacts/TARGET/ and the run goes on. MODE `single` runs it in
# one process, about three times faster for targets with large inputs (`variant`), but stops
# at the first crash (saved in artifacts/TARGET/ as well). The `variant` target also reads the
# shipped variants, ../variants/, as seeds (not copies of them, which would drift), and so
# does `fmt`.
# Usage: fuzz/run.sh TARGET [SECONDS] [fork|single] > fuzz/logs/TARGET.log 2>&1 &
set -euo pipefail
cd "$(dirname "$0")"
target=$1
seconds=${2:-3600}
mode=${3:-fork}
mkdir -p "work/$target" logs
flags=(-max_len=4096 -timeout=10 -rss_limit_mb=2048 -max_total_time="$seconds" -print_final_stats=1)
# `fmt` reads variant text, with the `variant` target's dictionary and seeds.
dict=$target
if [ "$target" = fmt ]; then
    dict=variant
fi
if [ -f "dict/$dict.dict" ]; then
    flags+=("-dict=dict/$dict.dict")
fi
seeds=("corpus/$target")
if [ "$target" = variant ] || [ "$target" = fmt ]; then
    seeds+=(../variants)
fi
case $mode in
    fork) flags+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1) ;;
    single) ;;
    *) echo "MODE is fork or single, not $mode" >&2; exit 2 ;;
esac
exec cargo fuzz run -s none --no-trace-compares "$target" "work/$target" "${seeds[@]}" -- "${flags[@]}"
