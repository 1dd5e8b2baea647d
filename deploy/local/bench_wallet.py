"""Benchmark of docs/benchmarks.md: 1,000 storage-extension purchases paid from one
CreditCard Wallet by 100 concurrent clients, then 1,000 from 100 wallets (ten each), every request
sent twice with its Idempotency-Key (a client retrying), through Envoy against the running stack.
Checks, for every wallet, that the final balance is exactly what the ledger says (credits minus
the purchases), that there are as many purchases as were made and no more, and that every card
charge is credited once; reports purchases per second beside `pgbench -N` (simple-update) with the
same 100 clients on the same PostgreSQL in the same run.

Run against a `./dev up`: `.dev/venv/bin/python deploy/local/bench_wallet.py [--purchases 1000]`.
"""

import argparse
import asyncio
import glob
import json
import os
import re
import subprocess
import time
import uuid

import urllib3

BASE = os.environ.get("BASE", "http://127.0.0.1:8080")
STRIPE = os.environ.get("STRIPE", "http://127.0.0.1:8420")
PG = os.environ.get("PG", "postgres://postgres@127.0.0.1:5432")
HTTP = urllib3.PoolManager(maxsize=128)


def api(method, path, token=None, body=None, key=None, ok=True):
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    if key:
        headers["idempotency-key"] = key
    r = HTTP.request(method, f"{BASE}/api/{path}", body=json.dumps(body) if body is not None else None,
                     headers=headers, timeout=60)
    data = json.loads(r.data) if r.data else None
    if ok and r.status >= 400:
        raise SystemExit(f"{method} {path}: {r.status} {data}")
    return r.status, data


def stripe(path, fields):
    headers = urllib3.make_headers(basic_auth="sk_test_local:")
    r = HTTP.request("POST", f"{STRIPE}/v1/{path}", fields=fields, headers=headers, encode_multipart=False)
    data = json.loads(r.data)
    if r.status >= 400:
        raise SystemExit(f"stripe {path}: {r.status} {data}")
    return data


def sign_up():
    tag = str(time.time_ns())
    email = f"bench-wallet-{tag}@example.com"
    api("POST", "accounts/confirmation-code/send/", body={"email": email})
    code = None
    for _ in range(100):
        for name in sorted(glob.glob(".dev/mail/*.eml"), reverse=True):
            text = open(name, encoding="utf-8", errors="replace").read()
            if f"To: {email}" in text:
                code = re.search(r"code is (\d{6})", text).group(1)
                break
        if code:
            break
        time.sleep(0.1)
    _, verified = api("POST", "accounts/confirmation-code/verify/", body={"email": email, "code": code})
    _, pair = api("POST", "accounts/create/", body={
        "email": email, "username": f"bw{tag[-12:]}", "password": "Secret12#",
        "verification_token": verified["verification_token"],
        "phone_number": {"country_code": "+1", "national_number": tag[-10:]},
    })
    return pair["access"]


def psql(db, sql):
    out = subprocess.run(["psql", f"{PG}/{db}", "-At", "-c", sql], check=True, capture_output=True, text=True)
    return out.stdout.strip()


def pgbench(clients, seconds):
    db = "evidentia_bench_pgbench"
    subprocess.run(["psql", f"{PG}/postgres", "-qc", f"DROP DATABASE IF EXISTS {db}"], check=True)
    subprocess.run(["psql", f"{PG}/postgres", "-qc", f"CREATE DATABASE {db}"], check=True)
    subprocess.run(["pgbench", "-q", "-i", "-s", "10", f"{PG}/{db}"], check=True, capture_output=True)
    out = subprocess.run(["pgbench", "-N", "-c", str(clients), "-j", "2", "-T", str(seconds), f"{PG}/{db}"],
                         check=True, capture_output=True, text=True).stdout
    subprocess.run(["psql", f"{PG}/postgres", "-qc", f"DROP DATABASE {db}"], check=True)
    return float(re.search(r"tps = ([\d.]+)", out).group(1))


def open_wallet(folders):
    """A new user with a saved card, a wallet of $100 that tops up by $100 under $5.00, and
    `folders` folders to extend, one a purchase: what one client pays with. (Two purchases of the
    same folder quoted from the same date buy the same new date, and the later one is refunded.)"""
    token = sign_up()
    _, customer = api("POST", "payments/stripe-customer/create/", token, {})
    pm = stripe("payment_methods", {"type": "card", "card[number]": "4242424242424242", "card[exp_month]": "12",
                                    "card[exp_year]": "2030", "card[cvc]": "123"})["id"]
    api("POST", "payments/payment-method/register/", token, {"payment_method_id": pm})
    _, setup = api("POST", "payments/stripe-setup-intent/create/", token,
                   {"stripe_customer_id": customer["stripe_customer_id"]})
    stripe(f"setup_intents/{setup['client_secret'].split('_secret_')[0]}/confirm", {"payment_method": pm})
    _, cards = api("GET", "payments/payment-methods/get/", token)
    card = cards["payment_methods"][0]["id"]
    _, intent = api("POST", "payments/payment-intent/create/", token,
                    {"payment_method_id": card, "metadata": {"action": 2, "amount": 10000}}, key=str(uuid.uuid4()))
    stripe(f"payment_intents/{intent['payment_intent_id']}/confirm", {})
    api("POST", "payments/stored-account/update/", token, {"auto_topping_up_amount": 10000, "payment_method_id": card})
    ids = [api("POST", "evidence/folders/create/", token, {"name": f"Bench folder {n + 1}"})[1]["id"]
           for n in range(folders)]
    _, price = api("POST", "payments/storage-price-prolong/calculate/", token, {"folder_id": ids[0], "months": 1})
    user = psql("evidentia_payments", f"SELECT user_id FROM customers WHERE stripe_customer_id = '{customer['stripe_customer_id']}'")
    bodies = [{"kind": "storage_extension", "folder_id": f, "months": 1, "pay_with": "wallet"} for f in ids]
    return {"token": token, "user": user, "bodies": bodies, "each": price["wallet_total"]}


class Connection:
    """One client's keep-alive HTTP/1.1 connection to Envoy, spoken directly on asyncio streams.
    The load is driven this way, not through a thread pool and urllib3, because the client shares
    the two cores with the stack it measures: urllib3 and 100 threads cost about a millisecond of
    CPU a purchase, a fifth of what the stack itself spends."""

    def __init__(self, host, port):
        self.host, self.port = host, port
        self.reader = self.writer = None

    async def post(self, path, token, key, body):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        payload = json.dumps(body).encode()
        head = (f"POST /api/{path} HTTP/1.1\r\nhost: {self.host}:{self.port}\r\n"
                f"authorization: Bearer {token}\r\nidempotency-key: {key}\r\n"
                f"content-type: application/json\r\ncontent-length: {len(payload)}\r\n\r\n")
        self.writer.write(head.encode() + payload)
        status_line = await self.reader.readuntil(b"\r\n")
        status = int(status_line.split(b" ", 2)[1])
        length, close = 0, False
        while (line := await self.reader.readuntil(b"\r\n")) != b"\r\n":
            name, _, value = line.decode("latin-1").partition(":")
            name = name.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding" and "chunked" in value.lower():
                raise SystemExit("chunked answer from the gateway: this client reads content-length only")
            elif name == "connection" and value.strip().lower() == "close":
                close = True
        data = await self.reader.readexactly(length) if length else b""
        if close:
            self.writer.close()
            self.reader = self.writer = None
        return status, json.loads(data) if data else None


async def purchase(connection, wallet, n):
    """The wallet's `n`-th purchase (of its `n`-th folder), sent twice with one key."""
    key = str(uuid.uuid4())
    body = wallet["bodies"][n]
    first = await connection.post("payments/stored-account/pay/", wallet["token"], key, body)
    retry = await connection.post("payments/stored-account/pay/", wallet["token"], key, body)
    assert first[0] == 200 and retry[0] == 200, (first, retry)
    assert first[1]["transaction"]["id"] == retry[1]["transaction"]["id"], "a retry made a second purchase"
    assert first[1] == retry[1], "a retry was answered otherwise than the request it repeats"
    return first[1]["transaction"]["id"]


async def drive(wallets, purchases, clients):
    """`clients` connections taking the next purchase as each finishes: the i-th purchase is made
    from wallet i mod len(wallets)."""
    url = urllib3.util.parse_url(BASE)
    queue = iter(range(purchases))
    ids = []

    async def client():
        connection = Connection(url.host, url.port or 80)
        for i in queue:
            ids.append(await purchase(connection, wallets[i % len(wallets)], i // len(wallets)))
        if connection.writer is not None:
            connection.writer.close()

    await asyncio.gather(*(client() for _ in range(clients)))
    return ids


def check(wallet, made):
    """The wallet's books after `made` purchases: exact, each purchase once, each charge credited once."""
    user = wallet["user"]
    purchases = int(psql("evidentia_payments", f"SELECT count(*) FROM purchases WHERE user_id = '{user}'"))
    debits = int(psql("evidentia_payments", f"SELECT -coalesce(sum(amount_cents), 0) FROM wallet_entries WHERE user_id = '{user}' AND kind = 'purchase'"))
    credits = int(psql("evidentia_payments", f"SELECT coalesce(sum(amount_cents), 0) FROM wallet_entries WHERE user_id = '{user}' AND amount_cents > 0"))
    charges = int(psql("evidentia_payments", f"SELECT count(*) FROM payment_intents WHERE user_id = '{user}' AND status = 'succeeded'"))
    credited = int(psql("evidentia_payments", f"SELECT count(*) FROM wallet_entries WHERE user_id = '{user}' AND reference LIKE 'pi:%'"))
    balance = int(psql("evidentia_payments", f"SELECT balance_cents FROM wallets WHERE user_id = '{user}'"))
    refunds = int(psql("evidentia_payments", f"SELECT count(*) FROM wallet_entries WHERE user_id = '{user}' AND kind = 'refund'"))
    assert purchases == made, (purchases, made)
    assert debits == wallet["each"] * made, (debits, wallet["each"] * made)
    assert balance == credits - debits, (balance, credits, debits)
    assert charges == credited, f"{charges} succeeded charges, {credited} credited"
    assert balance >= 0
    assert refunds == 0, f"{refunds} purchases refunded: each bought a folder's new date once"
    return {"purchases": purchases, "card_charges": charges, "credits_cents": credits, "debits_cents": debits,
            "final_balance_cents": balance}


# Where a run's CPU goes: each component's processes, found by their command lines (the services by
# their binary's name, the rest by their program), CPU time read from /proc before and after.
COMPONENTS = {
    "envoy": re.compile(r"(^|/)envoy\b"),
    "gateway": re.compile(r"/gateway$"),
    "accounts": re.compile(r"/accounts$"),
    "payments": re.compile(r"/payments$"),
    "evidence": re.compile(r"/evidence$"),
    "sharing": re.compile(r"/sharing$"),
    "referrals": re.compile(r"/referrals$"),
    "postgres": re.compile(r"^postgres"),
    "redis": re.compile(r"^redis-server"),
    "rabbitmq": re.compile(r"beam\.smp"),
    "localstripe": re.compile(r"localstripe"),
}
HZ = os.sysconf("SC_CLK_TCK")


def cpu_ticks():
    """{(component, pid): user + system ticks} for every running process of a component, and this
    benchmark's own (the client) under "client"."""
    ticks = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        command = " ".join(a.decode(errors="replace") for a in argv if a)
        name = "client" if int(pid) == os.getpid() else next(
            (c for c, pattern in COMPONENTS.items() if pattern.search(argv[0].decode(errors="replace"))
             or (c in ("envoy", "rabbitmq", "localstripe") and pattern.search(command))), None)
        if name:
            ticks[(name, pid)] = int(fields[11]) + int(fields[12])
    return ticks


def cpu_per(before, after, count):
    """Milliseconds of CPU per purchase, by component: a process that ended meanwhile is left out,
    one that started counts from zero."""
    spent = {}
    for (name, pid), t in after.items():
        spent[name] = spent.get(name, 0) + t - before.get((name, pid), 0)
    return {name: round(t / HZ * 1000 / count, 2) for name, t in sorted(spent.items(), key=lambda kv: -kv[1])}


def run(wallets, purchases, clients):
    """`purchases` purchases by `clients` clients, the i-th purchase from wallet i mod len(wallets);
    answers the seconds taken, each wallet's books and the CPU per purchase by component."""
    before = cpu_ticks()
    t0 = time.monotonic()
    ids = asyncio.run(drive(wallets, purchases, clients))
    elapsed = time.monotonic() - t0
    # The events a purchase publishes are handled after its answer: let them drain into the count.
    time.sleep(2)
    cpu = cpu_per(before, cpu_ticks(), purchases)
    assert len(set(ids)) == purchases, (len(set(ids)), purchases)
    books = [check(w, sum(1 for i in range(purchases) if i % len(wallets) == n)) for n, w in enumerate(wallets)]
    return elapsed, books, cpu


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--purchases", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--wallets", type=int, default=100, help="wallets of the second run (the first has one)")
    args = parser.parse_args()

    one = [open_wallet(args.purchases)]
    many = [open_wallet(-(-args.purchases // args.wallets)) for _ in range(args.wallets)]
    one_elapsed, one_books, one_cpu = run(one, args.purchases, args.clients)
    many_elapsed, many_books, many_cpu = run(many, args.purchases, args.clients)

    # pgbench with as many clients as the server's connection limit leaves (the stack holds some).
    free = int(psql("postgres", "SELECT current_setting('max_connections')::int - count(*) - 5 FROM pg_stat_activity"))
    pg_clients = max(1, min(args.clients, free))
    tps = pgbench(pg_clients, 10)
    one_rate = args.purchases / one_elapsed
    many_rate = args.purchases / many_elapsed
    charges = one_books[0]["card_charges"]
    # The lines ./dev bench puts in its table: measure, ours, yardstick, ours / yardstick.
    print(f"RESULT\t{args.purchases:,} purchases from {args.clients} clients on one wallet (each sent twice)\t"
          f"{one_rate:.0f} purchases/s, balance exact, {charges} charges credited once\t"
          f"pgbench -N {tps:.0f} tps ({pg_clients} clients)\t{one_rate / tps:.2f}x")
    print(f"RESULT\t{args.purchases:,} purchases from {args.clients} clients on {args.wallets} wallets (each sent twice)\t"
          f"{many_rate:.0f} purchases/s, every balance exact\t"
          f"pgbench -N {tps:.0f} tps ({pg_clients} clients)\t{many_rate / tps:.2f}x")
    print(json.dumps({
        "one_wallet": {"seconds": round(one_elapsed, 1), "purchases_per_second": round(one_rate, 1),
                       "each_cents": one[0]["each"], **one_books[0],
                       "cpu_ms_per_purchase": one_cpu},
        "many_wallets": {"wallets": args.wallets, "seconds": round(many_elapsed, 1),
                         "purchases_per_second": round(many_rate, 1),
                         "card_charges": sum(b["card_charges"] for b in many_books),
                         "cpu_ms_per_purchase": many_cpu},
        "requests_per_run": 2 * args.purchases, "clients": args.clients,
        "pgbench_clients": pg_clients, "pgbench_simple_update_tps": tps,
    }, indent=2))


if __name__ == "__main__":
    main()
