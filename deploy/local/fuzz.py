#!/usr/bin/env python3
"""Fuzzes the live API with schemathesis: signs up a fresh user through the API (the e-mailed
confirmation code read from the SMTP sink's directory), then runs every operation of
/api/openapi.json with every response check, failing on any finding.

    fuzz.py --base-url http://127.0.0.1:8080 --mail-dir .dev/mail --max-examples 25 --max-time 210

Used by `./dev test` (a bounded run) and `./dev fuzz` (the long run recorded in
docs/benchmarks.md). Reports (JUnit, NDJSON) go to --report-dir.
"""

import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid

HERE = pathlib.Path(__file__).resolve().parent

# Every check schemathesis has that judges one response against the document, plus the one that
# replays a request without its token. Not `unsupported_method`: its probe is a bodiless QUERY,
# which Envoy refuses with 400 (the method requires a Content-Type) before the gateway could
# answer 405; wrong methods are covered by the gateway's tests and check_envoy.py.
CHECKS = [
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
    "response_headers_conformance",
    "ignored_auth",
    "allow_header_conformance",
]


def post(base_url: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(
        f"{base_url}/api/{path}",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return json.load(response)
    except urllib.error.HTTPError as err:
        sys.exit(f"fuzz: POST /api/{path} answered {err.code}: {err.read().decode(errors='replace')}")


def read_code(mail_dir: pathlib.Path, email: str, deadline: float) -> str:
    """The 6-digit code of the newest message to `email` in the sink's directory."""
    while time.monotonic() < deadline:
        for path in sorted(mail_dir.glob("*"), reverse=True):
            try:
                text = path.read_text(errors="replace")
            except OSError:
                continue
            if f"To: {email}" in text:
                found = re.search(r"confirmation code is (\d{6})", text)
                if found:
                    return found.group(1)
        time.sleep(0.2)
    sys.exit(f"fuzz: no confirmation code for {email} in {mail_dir}")


def sign_up(base_url: str, mail_dir: pathlib.Path) -> dict:
    unique = uuid.uuid4().hex
    email = f"fuzz-{unique[:12]}@example.com"
    national = "".join(c for c in unique if c.isdigit())[:10].ljust(10, "7")
    post(base_url, "accounts/confirmation-code/send/", {"email": email, "purpose": "sign_up"})
    code = read_code(mail_dir, email, time.monotonic() + 15)
    verified = post(base_url, "accounts/confirmation-code/verify/", {"email": email, "code": code})
    return post(
        base_url,
        "accounts/create/",
        {
            "username": f"fz{unique[:12]}",
            "email": email,
            "password": "Fuzz12#secret",
            "verification_token": verified["verification_token"],
            "phone_number": {"country_code": "+44", "national_number": national},
        },
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", default="http://127.0.0.1:8080")
    parser.add_argument("--mail-dir", type=pathlib.Path, required=True)
    parser.add_argument("--max-examples", type=int, default=25)
    parser.add_argument(
        "--max-time",
        type=int,
        default=210,
        help="seconds for the whole run, fuzzing again until they are spent (0: each phase once)",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=4242)
    parser.add_argument("--report-dir", type=pathlib.Path, default=pathlib.Path(".dev/fuzz"))
    args = parser.parse_args()
    base_url = args.base_url.rstrip("/")

    tokens = sign_up(base_url, args.mail_dir)
    args.report_dir.mkdir(parents=True, exist_ok=True)
    env = dict(
        os.environ,
        FUZZ_BASE_URL=base_url,
        FUZZ_ACCESS_TOKEN=tokens["access"],
        FUZZ_REFRESH_TOKEN=tokens["refresh"],
        SCHEMATHESIS_HOOKS="fuzz_hooks",
        PYTHONPATH=os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")])),
    )
    command = [
        str(pathlib.Path(sys.executable).parent / "schemathesis"),
        "run",
        f"{base_url}/api/openapi.json",
        "--url", base_url,
        "--checks", ",".join(CHECKS),
        "--max-examples", str(args.max_examples),
        "--workers", str(args.workers),
        "--request-timeout", "20",
        "--seed", str(args.seed),
        "--report", "junit,ndjson",
        "--report-dir", str(args.report_dir),
        "--generation-database", "none",
        "--no-color",
    ]
    if args.max_time > 0:
        command += ["--max-time", str(args.max_time)]
    print("fuzz: " + " ".join(command), flush=True)
    return subprocess.run(command, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
