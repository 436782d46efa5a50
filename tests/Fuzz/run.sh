#!/usr/bin/env bash
# Coverage-guided fuzzing of one decode entry point with AFL++ and SharpFuzz.
#   tests/Fuzz/run.sh <target> <seconds>     targets: dataset table typed reader stream
# Builds the harness, instruments its copy of DataSetSurrogate.dll, seeds afl-fuzz from tests/Fuzz/Seeds and runs it
# for the given time (resuming an earlier campaign's queue in tests/Fuzz/out/findings/<target>), then prints the
# campaign's figures and replays every crash and hang through the harness. Needs afl-fuzz (Debian: afl++).
# Regenerate the seeds with:
#   dotnet run --project tests/Fuzz -- seeds tests/Fuzz/Seeds tests/DataSetSurrogate.Tests/Golden <dataset-xml corpus dir>
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${1:?usage: tests/Fuzz/run.sh <dataset|table|typed|reader|stream> <seconds>}
seconds=${2:?usage: tests/Fuzz/run.sh <target> <seconds>}
case "$target" in dataset|table|typed|reader|stream) ;; *) echo "unknown target: $target" >&2; exit 2 ;; esac
command -v afl-fuzz >/dev/null || { echo "afl-fuzz not found (apt-get install afl++)" >&2; exit 2; }

out=tests/Fuzz/out
plain=$out/plain # replays findings: instrumented code needs afl-fuzz's shared memory
bin=$out/bin     # the copy afl-fuzz runs, with DataSetSurrogate.dll instrumented
findings=$out/findings/$target
rm -rf "$plain" "$bin"
dotnet publish tests/Fuzz -c Release -o "$plain" --nologo -v quiet
cp -r "$plain" "$bin"
dotnet tool restore >/dev/null
dotnet sharpfuzz "$bin/DataSetSurrogate.dll"

# dotnet itself is not instrumented (the fork server reports the managed coverage), the machine is shared
# (no CPU binding or governor checks), and a crash's core dump is of no use here.
export AFL_SKIP_BIN_CHECK=1 AFL_NO_AFFINITY=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
export AFL_NO_UI=1 AFL_AUTORESUME=1
mkdir -p "$findings"
afl-fuzz -i tests/Fuzz/Seeds -o "$findings" -V "$seconds" -t 5000 -m none -- dotnet "$bin/Surrogate.Fuzz.dll" fuzz "$target" >"$findings/afl.log" 2>&1 \
  || { tail -40 "$findings/afl.log" >&2; exit 1; }

stats=$findings/default/fuzzer_stats
echo "target $target:" $(grep -E '^(run_time|execs_done|execs_per_sec|corpus_count|edges_found|total_edges|saved_crashes|saved_hangs) ' "$stats" | tr -s ' ' | sed 's/ : /=/')
status=0
for kind in crashes hangs; do
  files=$(find "$findings/default/$kind" -type f -name 'id:*' 2>/dev/null | sort)
  [ -n "$files" ] || continue
  echo "$kind:"
  # shellcheck disable=SC2086 # one argument per file
  timeout 300 dotnet "$plain/Surrogate.Fuzz.dll" replay "$target" $files | cut -c1-400 || status=1
done
exit $status
