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

echo "== wrk: GET /api/accounts/me/ through Envoy, $CLIENTS connections, $DURATION"
wrk -t2 -c"$CLIENTS" -d"$DURATION" --latency -H "Authorization: Bearer $access" "$BASE/api/accounts/me/"

echo "== pgbench -S: $CLIENTS clients, $DURATION"
createdb -h 127.0.0.1 -U postgres evidentia_bench 2>/dev/null || true
pgbench -h 127.0.0.1 -U postgres -i -q -s 10 evidentia_bench >/dev/null 2>&1
pgbench -h 127.0.0.1 -U postgres -S -c "$CLIENTS" -j 2 -T "${DURATION%s}" evidentia_bench 2>/dev/null | grep -E 'tps|latency|number of transactions'
dropdb -h 127.0.0.1 -U postgres evidentia_bench
