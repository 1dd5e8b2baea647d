#!/usr/bin/env bash
# Benchmarks of docs/benchmarks.md against a running `./dev up`: GET /api/accounts/me/ through
# Envoy at 16 concurrent clients (wrk), beside its raw-SQL limit in the same run: pgbench running
# the three statements /me runs, prepared, for the same user, 16 clients across the two databases
# (8 on accounts' two statements, 8 on payments' one, at once). The yardstick is the rate at which
# whole sets of the three were answered: the slower of the two runs. Then wrk again, paced to half
# the yardstick's rate, for the latencies at half load.
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

# BENCH_TOKEN_ONLY=1: print the new user's access token and stop (for profiling by hand).
if [[ ${BENCH_TOKEN_ONLY:-} == 1 ]]; then echo "$access"; exit 0; fi
out=$(mktemp)
# CPU time (user + system, clock ticks) of each process whose command line matches a pattern, as
# "pid ticks" lines: taken before and after a run, `spent` sums each process's growth (one that
# started meanwhile counts from zero; one that ended meanwhile, with all it had spent before the
# run, is left out instead of taking that from the sum).
ticks() {
  local pid stat
  for pid in $(pgrep -f "$1"); do
    stat=$(cat "/proc/$pid/stat" 2>/dev/null) || continue
    stat=${stat##*) }
    echo "$pid $(awk '{print $12 + $13}' <<<"$stat")"
  done
}
spent() { # BEFORE AFTER (outputs of ticks)
  awk 'NR == FNR {before[$1] = $2; next} {total += $2 - ($1 in before ? before[$1] : 0)} END {print total + 0}' \
    <(printf '%s\n' "$1") <(printf '%s\n' "$2")
}
COMPONENTS=(envoy gateway accounts payments postgres redis)
pattern() {
  case $1 in
    envoy) echo 'envoy.* -c ' ;;
    postgres) echo '^postgres' ;;
    redis) echo '^redis-server' ;;
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
  spent=$(spent "${before[$c]}" "$(ticks "$(pattern "$c")")")
  per_request+="$c $(awk -v t="$spent" -v hz="$hz" -v n="$requests" 'BEGIN {printf "%.3f", t / hz * 1000 / n}') ms, "
done
per_request=${per_request%, }
echo "CPU per request: $per_request"

user_id=$(curl -sf -H "Authorization: Bearer $access" "$BASE/api/accounts/me/" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
scripts=$(mktemp -d)
trap 'rm -f "$out"; rm -rf "$scripts"' EXIT
# The statements as the services send them (services/accounts/src/store/users.rs active_profile,
# store/organizations.rs membership; services/payments/src/store/customers.rs profile).
cat >"$scripts/accounts.sql" <<'SQL'
SELECT id, username, email, first_name, last_name, phone_country_code, phone_national_number, account_type, communication_method, country, apartment_number, province, street, house, city, zip_code, created_at FROM users WHERE id = :uid AND deleted_at IS NULL;
SELECT o.id AS organization_id, o.owner_id, o.name, m.role, o.created_at FROM organization_members m JOIN organizations o ON o.id = m.organization_id WHERE m.user_id = :uid;
SQL
cat >"$scripts/payments.sql" <<'SQL'
SELECT c.stripe_customer_id, c.default_payment_method, COALESCE(w.auto_topping_up_amount_cents, 0) AS auto_topping_up_amount, COALESCE(w.balance_cents, 0) AS credit_card_wallet_balance, c.one_time_benefit_applied FROM customers c LEFT JOIN wallets w ON w.user_id = c.user_id WHERE c.user_id = :uid;
SQL
half=$((CLIENTS / 2))
echo "== pgbench, prepared: /me's two accounts statements ($half clients) and its payments statement ($half clients) at once, $DURATION"
# pgbench's backends exit with it, taking their CPU ticks along: they are read a second before
# the end, and the transactions counted over the same part of the run.
seconds=${DURATION%s}
pg_before=$(ticks "$(pattern postgres)")
pgbench -h 127.0.0.1 -U postgres -n -M prepared -D uid="$user_id" -f "$scripts/accounts.sql" -c "$half" -j 1 -T "$seconds" evidentia_accounts >"$scripts/accounts.out" 2>&1 &
accounts_pid=$!
pgbench -h 127.0.0.1 -U postgres -n -M prepared -D uid="$user_id" -f "$scripts/payments.sql" -c "$half" -j 1 -T "$seconds" evidentia_payments >"$scripts/payments.out" 2>&1 &
payments_pid=$!
sleep $((seconds - 1))
pg_spent=$(spent "$pg_before" "$(ticks "$(pattern postgres)")")
wait "$accounts_pid" "$payments_pid"
for db in accounts payments; do
  echo "-- $db"
  grep -E '^tps|latency|number of transactions actually' "$scripts/$db.out"
done
tps_accounts=$(awk '/^tps/ {printf "%.0f", $3}' "$scripts/accounts.out")
tps_payments=$(awk '/^tps/ {printf "%.0f", $3}' "$scripts/payments.out")
[[ -n $tps_accounts && -n $tps_payments ]] || { cat "$scripts"/*.out >&2; echo "bench: pgbench failed" >&2; exit 1; }
tps=$((tps_accounts < tps_payments ? tps_accounts : tps_payments))
# The statements run, in sets of three: each accounts transaction is two of them, each payments one.
sets=$(awk -v a="$tps_accounts" -v p="$tps_payments" -v s="$seconds" 'BEGIN {printf "%.0f", (2 * a + p) / 3 * s}')
pg_per=$(awk -v t="$pg_spent" -v hz="$hz" -v n="$sets" -v s="$seconds" 'BEGIN {printf "%.3f", t / hz * 1000 / (n * (s - 1) / s)}')
echo "whole sets of /me's statements: $tps per second (accounts $tps_accounts, payments $tps_payments); postgres CPU per set $pg_per ms"

# Half load: each connection pauses between requests (wrk's Lua delay), so the 16 together offer
# about half the yardstick's rate; the rate reached is reported beside the latencies.
half_rate=$((tps / 2))
pause_ms=$(awk -v c="$CLIENTS" -v r="$half_rate" 'BEGIN {printf "%.2f", c * 1000 / r}')
printf 'function delay()\n  return %s\nend\n' "$pause_ms" >"$scripts/pace.lua"
echo "== wrk: GET /api/accounts/me/ at about $half_rate req/s (half the yardstick; $pause_ms ms pause per connection), $CLIENTS connections, $DURATION"
wrk -t2 -c"$CLIENTS" -d"$DURATION" --latency -s "$scripts/pace.lua" -H "Authorization: Bearer $access" "$BASE/api/accounts/me/" | tee "$out"
half_line="$(awk '/^Requests\/sec/ {printf "%.0f", $2}' "$out") req/s: p50 $(awk '$1 == "50%" {print $2}' "$out"), p99 $(awk '$1 == "99%" {print $2}' "$out")"
echo "at half load: $half_line"

# The lines ./dev bench puts in its table: measure, ours, yardstick, ours / yardstick.
printf 'RESULT\tGET /api/accounts/me/ through Envoy, %s clients\t%s req/s, p50 %s, p99 %s\tpgbench, /me'"'"'s 3 statements prepared, %s clients: %s sets/s\t%s\n' \
  "$CLIENTS" "$rps" "$p50" "$p99" "$CLIENTS" "$tps" "$(awk -v a="$rps" -v b="$tps" 'BEGIN {printf "%.2fx", a / b}')"
printf 'RESULT\tGET /api/accounts/me/ at half the yardstick'"'"'s rate\t%s\tgoal: p99 under 10 ms\t\n' "$half_line"
printf 'RESULT\tCPU per GET /api/accounts/me/\t%s\tpgbench: postgres %s ms per set of the 3 statements\t\n' "$per_request" "$pg_per"
