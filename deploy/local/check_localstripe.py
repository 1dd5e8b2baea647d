"""Check that the running localstripe answers what async-stripe can deserialize.

async-stripe's generated types fail to deserialize an object when a non-`Option` field is
missing or has the wrong JSON type. This script reads those types from the async-stripe
sources cargo downloaded (the version pinned in Cargo.lock), drives localstripe through the
flows the services use (customer, card payment method, attach, payment intent succeeded and
declined, setup intent, events, lists) and reports every required field that is missing or
mistyped. `./dev test` runs it; after upgrading localstripe or async-stripe, a failure names
the line to add to COMPLETIONS in localstripe_server.py. It also starts a second launcher
of its own to check that the state file, written coalesced, keeps what a stop follows at once.

Exit 0: complete (or async-stripe not in Cargo.lock / not downloaded yet: skipped with a note).
"""

from __future__ import annotations

import base64
import glob
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BASE = os.environ.get("STRIPE_API_BASE") or "http://127.0.0.1:8420"
KEY = os.environ.get("STRIPE_SECRET_KEY") or "sk_test_local"

INTEGER = {"i64", "u64", "i32", "u32", "stripe_types::Timestamp", "Timestamp"}
STRING = {"String", "stripe_types::Currency", "Currency"}


def stripe_version() -> str | None:
    lock = (ROOT / "Cargo.lock").read_text() if (ROOT / "Cargo.lock").exists() else ""
    m = re.search(r'name = "async-stripe-shared"\nversion = "([^"]+)"', lock)
    return m.group(1) if m else None


def load_structs(version: str) -> dict[str, dict[str, str]]:
    cargo_home = Path(os.environ.get("CARGO_HOME") or Path.home() / ".cargo")
    files = glob.glob(str(cargo_home / f"registry/src/*/async-stripe-*-{version}/src/**/*.rs"), recursive=True)
    structs: dict[str, dict[str, str]] = {}
    for f in files:
        src = Path(f).read_text()
        for m in re.finditer(r"pub struct (\w+)(?:<[^>]*>)? \{\n(.*?)\n\}", src, re.S):
            name, body = m.group(1), m.group(2)
            if name.endswith("Builder") or structs.get(name):
                continue
            body = re.sub(r"\n\s+(?=[^\s/#p])", " ", body)  # join types split over lines
            structs[name] = {
                fm.group(1).rstrip("_"): fm.group(2).strip()
                for fm in re.finditer(r"^\s*pub (\w+):\s*(.*?),\s*$", body, re.M)
            }
    return structs


def _inner(t: str) -> str:
    return t[t.index("<") + 1 : t.rindex(">")]


class Checker:
    def __init__(self, structs: dict[str, dict[str, str]]) -> None:
        self.structs = structs
        self.problems: list[str] = []

    def check(self, t: str, v: Any, path: str) -> None:
        t = t.strip()
        if t.startswith("Option<"):
            if v is not None:
                self.check(_inner(t), v, path)
            return
        if t.startswith("Box<"):
            return self.check(_inner(t), v, path)
        if v is None:
            self.problems.append(f"{path}: null, but {t} is required")
        elif t.startswith("Vec<"):
            if not isinstance(v, list):
                self.problems.append(f"{path}: not a list ({t})")
            else:
                for i, item in enumerate(v):
                    self.check(_inner(t), item, f"{path}[{i}]")
        elif "Expandable<" in t:
            if not isinstance(v, str):
                self.check(_inner(t), v, path)
        elif re.search(r"(^|::)List<", t):
            for key in ("data", "has_more", "url"):
                if key not in v:
                    self.problems.append(f"{path}.{key}: missing (List)")
            for i, item in enumerate(v.get("data") or []):
                self.check(_inner(t), item, f"{path}.data[{i}]")
        elif t in INTEGER:
            if not isinstance(v, int) or isinstance(v, bool):
                self.problems.append(f"{path}: {v!r} is not an integer ({t})")
        elif t == "bool":
            if not isinstance(v, bool):
                self.problems.append(f"{path}: {v!r} is not a bool")
        elif t in STRING or t.endswith("Id"):
            if not isinstance(v, str):
                self.problems.append(f"{path}: {v!r} is not a string ({t})")
        elif t.startswith("std::collections::HashMap"):
            if not isinstance(v, dict):
                self.problems.append(f"{path}: {v!r} is not a map")
        else:
            fields = self.structs.get(t.split("::")[-1])
            if fields is not None and isinstance(v, dict):
                for key, ft in fields.items():
                    if key in v:
                        self.check(ft, v[key], f"{path}.{key}")
                    elif not ft.startswith("Option<"):
                        self.problems.append(f"{path}.{key}: missing, but {ft} is required")
            # enums and anything else: not checked


def api(method: str, path: str, data: dict[str, Any] | None = None, base: str = BASE) -> Any:
    body = urllib.parse.urlencode(data).encode() if data else None
    auth = base64.b64encode(f"{KEY}:".encode()).decode()
    req = urllib.request.Request(base + path, data=body, method=method, headers={"Authorization": f"Basic {auth}"})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return json.load(resp)
    except urllib.error.HTTPError as err:
        text = err.read().decode(errors="replace")
        try:
            return json.loads(text)
        except ValueError:
            return {"error": {"status": err.code, "message": text.strip()[:200]}}


def card(number: str) -> dict[str, str]:
    return {"type": "card", "card[number]": number, "card[exp_month]": "12", "card[exp_year]": "2034", "card[cvc]": "123"}


def sample_objects() -> list[tuple[str, str, Any]]:
    """(async-stripe type, label, object) for every flow the services use."""
    out: list[tuple[str, str, Any]] = []
    cus = api("POST", "/v1/customers", {"email": "check@evidentia.local", "name": "Check", "metadata[user_id]": "u"})
    out.append(("Customer", "POST /v1/customers", cus))
    pm = api("POST", "/v1/payment_methods", card("4242424242424242"))
    out.append(("PaymentMethod", "POST /v1/payment_methods/:id/attach",
                api("POST", f"/v1/payment_methods/{pm['id']}/attach", {"customer": cus["id"]})))
    out.append(("Customer", "POST /v1/customers/:id (default payment method)",
                api("POST", f"/v1/customers/{cus['id']}", {"invoice_settings[default_payment_method]": pm["id"]})))
    pi = api("POST", "/v1/payment_intents", {"amount": 500, "currency": "usd", "customer": cus["id"],
                                             "payment_method": pm["id"], "confirm": "true", "off_session": "true"})
    out.append(("PaymentIntent", "POST /v1/payment_intents (succeeded)", pi))
    charge = pi.get("latest_charge")
    charge_id = charge["id"] if isinstance(charge, dict) else charge
    out.append(("Charge", "GET /v1/charges/:id", api("GET", f"/v1/charges/{charge_id}")))
    declined = api("POST", "/v1/payment_methods", card("4000000000000341"))
    api("POST", f"/v1/payment_methods/{declined['id']}/attach", {"customer": cus["id"]})
    pi2 = api("POST", "/v1/payment_intents", {"amount": 500, "currency": "usd", "customer": cus["id"],
                                              "payment_method": declined["id"]})
    api("POST", f"/v1/payment_intents/{pi2['id']}/confirm")
    out.append(("PaymentIntent", "GET /v1/payment_intents/:id (declined)", api("GET", f"/v1/payment_intents/{pi2['id']}")))
    out.append(("SetupIntent", "POST /v1/setup_intents", api("POST", "/v1/setup_intents", {"customer": cus["id"]})))
    for event in api("GET", "/v1/events?limit=5")["data"]:
        out.append(("Event", f"GET /v1/events ({event.get('type')})", event))
    for label, path in (("GET /v1/customers/:id/payment_methods", f"/v1/customers/{cus['id']}/payment_methods?type=card"),
                        ("GET /v1/payment_methods?customer=", f"/v1/payment_methods?customer={cus['id']}&type=card")):
        listing = api("GET", path)
        out.append(("List", label, listing))
        for item in listing.get("data") or []:
            out.append(("PaymentMethod", label, item))
    return out


def check_saved_state() -> list[str]:
    """The launcher coalesces its state file's writes; what it answered must still be there after a
    stop right after the write (SIGTERM, as `./dev down` sends) and, without a stop, on disk
    within a few seconds. Runs a second launcher on a free port with a state file of its own."""
    problems: list[str] = []
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    launcher = [sys.executable, str(ROOT / "deploy/local/localstripe_server.py"), "--port", str(port)]

    def start(state: Path) -> subprocess.Popen:
        proc = subprocess.Popen([*launcher, "--state-file", str(state)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    return proc
            except OSError:
                time.sleep(0.05)
        proc.kill()
        raise RuntimeError("the second launcher did not start")

    def stop(proc: subprocess.Popen) -> None:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)

    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp) / "store.pickle"
        proc = start(state)
        try:
            cus = api("POST", "/v1/customers", {"email": "saved@evidentia.local"}, base=base)
        finally:
            stop(proc)
        proc = start(state)
        try:
            again = api("GET", f"/v1/customers/{cus['id']}", base=base)
            if again.get("id") != cus["id"]:
                problems.append(f"a customer made right before a stop was lost: {again}")
            later = api("POST", "/v1/customers", {"email": "later@evidentia.local"}, base=base)
            def saved() -> bool:
                return state.exists() and later["id"].encode() in state.read_bytes()

            deadline = time.monotonic() + 5
            while not saved() and time.monotonic() < deadline:
                time.sleep(0.1)
            if not saved():
                problems.append("a change was not written to the state file within 5 s")
        finally:
            stop(proc)
    return problems


def main() -> int:
    problems = check_saved_state()
    if problems:
        print("check_localstripe: the launcher's saved state:")
        for problem in problems:
            print(f"  {problem}")
        return 1
    print("check_localstripe: state written within seconds and on a stop")
    version = stripe_version()
    if not version:
        print("check_localstripe: async-stripe is not in Cargo.lock: skipped")
        return 0
    structs = load_structs(version)
    if "Customer" not in structs:
        print(f"check_localstripe: async-stripe {version} sources not downloaded yet (cargo fetch): skipped")
        return 0
    checker = Checker(structs)
    samples = sample_objects()
    for type_name, label, obj in samples:
        if isinstance(obj, dict) and "error" in obj:
            checker.problems.append(f"{label}: answered an error: {obj['error']}")
        elif type_name != "List":
            checker.check(type_name, obj, f"{type_name} from {label}")
    if checker.problems:
        print(f"check_localstripe: localstripe answers that async-stripe {version} cannot deserialize:")
        for problem in checker.problems:
            print(f"  {problem}")
        print("add the fields to COMPLETIONS in deploy/local/localstripe_server.py")
        return 1
    print(f"check_localstripe: {len(samples)} objects complete for async-stripe {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
