#!/usr/bin/env bash
# Benchmarks of docs/benchmarks.md against a running `./dev up`: GET /api/accounts/me/ through
# Envoy at 16 concurrent clients (wrk), beside `pgbench -S` on the same machine in the same run.
set -euo pipefail
cd "$(dirname "$0")/../.."
BASE=${BASE:-http://127.0.0.1:8080}
DURATION=${DURATION:-20s}
CLIENTS=${CLIENTS:-16}
command -v wrk >/dev/null || apt-get install -y -qq wrk >/dev/null
command -v pgbench >/dev/null || apt-get install -y -qq postgresql-contrib >/dev/null

curl -sf "$BASE/api/health/" >/dev/null || { echo "bench: the stack is not ready at $BASE (run ./dev up)" >&2; exit 1; }

unique=$(date +%s%N)
email="bench-$unique@example.com"
json() { curl -sf -H 'content-type: application/json' "$@"; }
json -X POST "$BASE/api/accounts/confirmation-code/send/" -d "{\"email\":\"$email\"}" >/dev/null
code=""
for _ in $(seq 1 50); do
  file=$(grep -l "To: $email" .dev/mail/*.eml 2>/dev/null | tail -1 || true)
  if [[ -n $file ]]; then code=$(grep -o 'code is [0-9]\{6\}' "$file" | grep -o '[0-9]\{6\}'); break; fi
  sleep 0.1
done
[[ -n $code ]] || { echo "bench: no confirmation e-mail for $email" >&2; exit 1; }
token=$(json -X POST "$BASE/api/accounts/confirmation-code/verify/" -d "{\"email\":\"$email\",\"code\":\"$code\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["verification_token"])')
phone=$(printf '%010d' $((unique % 10000000000)))
access=$(json -X POST "$BASE/api/accounts/create/" -d "{\"email\":\"$email\",\"username\":\"b${unique: -12}\",\"password\":\"Secret12#\",\"verification_token\":\"$token\",\"phone_number\":{\"country_code\":\"+1\",\"national_number\":\"$phone\"}}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["access"])')

out=$(mktemp)
trap 'rm -f "$out"' EXIT
# CPU time (user + system, clock ticks) of the processes whose command line matches a pattern:
# read before and after a run, it says what each component spent on it.
ticks() {
  local pid total=0 stat
  for pid in $(pgrep -f "$1"); do
    stat=$(cat "/proc/$pid/stat" 2>/dev/null) || continue
    stat=${stat##*) }
    total=$((total + $(awk '{print $12 + $13}' <<<"$stat")))
  done
  echo "$total"
}
COMPONENTS=(envoy gateway accounts payments postgres)
pattern() {
  case $1 in
    envoy) echo 'envoy.* -c ' ;;
    postgres) echo '^postgres' ;;
    *) echo "/$1\$" ;;
  esac
}
hz=$(getconf CLK_TCK)
declare -A before
for c in "${COMPONENTS[@]}"; do before[$c]=$(ticks "$(pattern "$c")"); done
echo "== wrk: GET /api/accounts/me/ through Envoy, $CLIENTS connections, $DURATION"
wrk -t2 -c"$CLIENTS" -d"$DURATION" --latency -H "Authorization: Bearer $access" "$BASE/api/accounts/me/" | tee "$out"
rps=$(awk '/^Requests\/sec/ {printf "%.0f", $2}' "$out")
p50=$(awk '$1 == "50%" {print $2}' "$out")
p99=$(awk '$1 == "99%" {print $2}' "$out")
requests=$(awk '/requests in/ {print $1}' "$out")
per_request=""
for c in "${COMPONENTS[@]}"; do
  spent=$(( $(ticks "$(pattern "$c")") - before[$c] ))
  per_request+="$c $(awk -v t="$spent" -v hz="$hz" -v n="$requests" 'BEGIN {printf "%.3f", t / hz * 1000 / n}') ms, "
done
per_request=${per_request%, }
echo "CPU per request: $per_request"

echo "== pgbench -S: $CLIENTS clients, $DURATION"
createdb -h 127.0.0.1 -U postgres evidentia_bench 2>/dev/null || true
pgbench -h 127.0.0.1 -U postgres -i -q -s 10 evidentia_bench >/dev/null 2>&1
# pgbench's backends exit with it, taking their CPU ticks along: they are read a second before
# the end, and the transactions counted over the same part of the run.
seconds=${DURATION%s}
pg_before=$(ticks "$(pattern postgres)")
pgbench -h 127.0.0.1 -U postgres -S -c "$CLIENTS" -j 2 -T "$seconds" evidentia_bench >"$out" 2>/dev/null &
sleep $((seconds - 1))
pg_spent=$(( $(ticks "$(pattern postgres)") - pg_before ))
wait $!
grep -E 'tps|latency|number of transactions' "$out"
tps=$(awk '/^tps/ {printf "%.0f", $3}' "$out")
transactions=$(awk '/number of transactions actually processed/ {print $NF}' "$out")
pg_per=$(awk -v t="$pg_spent" -v hz="$hz" -v n="$transactions" -v s="$seconds" 'BEGIN {printf "%.3f", t / hz * 1000 / (n * (s - 1) / s)}')
echo "CPU per transaction: postgres $pg_per ms"
dropdb -h 127.0.0.1 -U postgres evidentia_bench
# The line ./dev bench puts in its table: measure, ours, yardstick, ours / yardstick.
printf 'RESULT\tGET /api/accounts/me/ through Envoy, %s clients\t%s req/s, p50 %s, p99 %s\tpgbench -S %s tps\t%s\n' \
  "$CLIENTS" "$rps" "$p50" "$p99" "$tps" "$(awk -v a="$rps" -v b="$tps" 'BEGIN {printf "%.2fx", a / b}')"
printf 'RESULT\tCPU per GET /api/accounts/me/\t%s\tpgbench -S: postgres %s ms per transaction\t\n' "$per_request" "$pg_per"
