#!/usr/bin/env bash
# The evidence-packet benchmark of docs/benchmarks.md ("Evidence packets"): a packet of a 1 GiB
# folder (8 files of 128 MiB of random bytes) written by the service's ZIP writer (release build
# of the `packet` example), against `zip -0` (stored, as ours) of the same files on the same
# disk, with the peak RSS of each. Needs no running stack.
# Usage: deploy/local/bench_packet.sh [RUNS] (default 3).
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-3}
for tool in zip hyperfine /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench: $tool missing (deploy/local/apt-packages.txt)" >&2; exit 1; }
done
cargo build --release -q -p sharing --example packet
bin=${CARGO_TARGET_DIR:-target}/release/examples/packet
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
mkdir folder
for i in 1 2 3 4 5 6 7 8; do head -c $((128 * 1024 * 1024)) /dev/urandom > "folder/file-$i.mp4"; done
echo "$(nproc) cores, load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== 1 GiB in 8 files, $RUNS runs each (the files stay in the page cache for both)"
hyperfine -N -w 1 -r "$RUNS" --export-json packet.json \
  -n ours "$bin folder ours.zip" -n zip "zip -0 -q -r zip.zip folder"
peak() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ {printf "%.1f MiB", $2 / 1024}'; }
echo "peak RSS: ours $(peak "$bin" folder ours.zip), zip $(peak zip -0 -q -r zip2.zip folder)"
unzip -tq ours.zip
python3 - <<'PY'
import json
results = {r["command"]: r for r in json.load(open("packet.json"))["results"]}
size = 8 * 128
ours, zip_ = results["ours"], results["zip"]
print(f"ours {size / ours['median']:.0f} MiB/s (median {ours['median']:.2f} s), zip -0 {size / zip_['median']:.0f} MiB/s"
      f" (median {zip_['median']:.2f} s): ours / zip = {zip_['median'] / ours['median']:.2f} of its throughput")
# The line ./dev bench puts in its table: measure, ours, yardstick, ours / yardstick.
print(f"RESULT\tevidence packet of a 1 GiB folder (8 files)\t{size / ours['median']:.0f} MiB/s\t"
      f"zip -0 {size / zip_['median']:.0f} MiB/s\t{zip_['median'] / ours['median']:.2f}x (goal 0.8x or more)")
PY
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
