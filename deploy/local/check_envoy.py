#!/usr/bin/env python3
"""Checks what only the whole stack shows, through Envoy:

1. a 10 MB JSON body to every POST, PUT and PATCH operation of /api/openapi.json answers 413 in
   the API's error shape (Envoy refuses it before the gateway sees a byte);
2. requests with a body answered 405 (a method the path does not take), each followed by a normal
   request on the same connection, never answer 503: the gateway reads every body before it
   answers, so it never closes a connection Envoy may be sending the next request into.

    check_envoy.py --base-url http://127.0.0.1:8080 [--rounds 500]
"""

import argparse
import http.client
import json
import socket
import sys
import threading
import urllib.parse
import urllib.request

BIG = b'{"padding": "' + b"a" * (10 * 1024 * 1024) + b'"}'


def connect(base_url: str) -> http.client.HTTPConnection:
    parsed = urllib.parse.urlsplit(base_url)
    return http.client.HTTPConnection(parsed.hostname, parsed.port or 80, timeout=30)


def request(conn, method: str, path: str, body: bytes | None = None):
    headers = {"content-type": "application/json"} if body is not None else {}
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    return response.status, response.getheaders(), response.read()


def send_big(base_url: str, method: str, path: str):
    """Sends BIG while reading the answer, as a browser does: the answer comes before the body is
    sent, and the connection closes after it (writing the rest then fails, which is expected)."""
    parsed = urllib.parse.urlsplit(base_url)
    sock = socket.create_connection((parsed.hostname, parsed.port or 80), timeout=30)
    head = (
        f"{method} {path} HTTP/1.1\r\nhost: {parsed.netloc}\r\n"
        f"content-type: application/json\r\ncontent-length: {len(BIG)}\r\n\r\n"
    ).encode()

    def write() -> None:
        try:
            sock.sendall(head + BIG)
        except OSError:
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        response = http.client.HTTPResponse(sock, method=method)
        response.begin()
        return response.status, response.getheaders(), response.read()
    finally:
        sock.close()
        writer.join(timeout=5)


def error_shape(body: bytes, code: str) -> str | None:
    """None when `body` is the API's error shape with `code` first; else what is wrong."""
    try:
        value = json.loads(body)
        first = value["errors"][0]
        if first["code"] != code or not first["message"] or not value["request_id"]:
            return f"unexpected error body {value}"
    except (ValueError, KeyError, IndexError, TypeError) as err:
        return f"not the API's error shape ({err}): {body[:200]!r}"
    return None


def check_too_large(base_url: str) -> list[str]:
    with urllib.request.urlopen(f"{base_url}/api/openapi.json", timeout=20) as response:
        paths = json.load(response)["paths"]
    failures = []
    checked = 0
    for path, item in sorted(paths.items()):
        for method in item:
            if method not in ("post", "put", "patch"):
                continue
            # Path parameters: any value; the body is refused before the route is chosen.
            concrete = path.replace("{", "x").replace("}", "")
            try:
                status, headers, body = send_big(base_url, method.upper(), concrete)
            except (OSError, http.client.HTTPException) as err:
                failures.append(f"{method.upper()} {path}: no answer ({err})")
                continue
            checked += 1
            content_type = dict((k.lower(), v) for k, v in headers).get("content-type", "")
            problem = (
                f"answered {status}, not 413" if status != 413
                else f"content-type {content_type!r}" if not content_type.startswith("application/json")
                else error_shape(body, "too_large")
            )
            if problem:
                failures.append(f"{method.upper()} {path}: {problem}")
    print(f"check_envoy: a 10 MB body to {checked} operations: {checked - len(failures)} answered 413 in the error shape")
    if checked == 0:
        failures.append("no POST, PUT or PATCH operation in the document")
    return failures


def check_no_reset_after_405(base_url: str, rounds: int) -> list[str]:
    failures = []
    body = json.dumps({"username": "x" * 200_000}).encode()
    conn = connect(base_url)
    statuses: dict[int, int] = {}
    for i in range(rounds):
        for method, path, data in (
            ("DELETE", "/api/accounts/login/", body),
            ("GET", "/api/health/live/", None),
        ):
            try:
                status, _, _ = request(conn, method, path, data)
            except (OSError, http.client.HTTPException):
                # The connection was closed: that is the fault this checks for.
                failures.append(f"round {i}: {method} {path}: the connection was closed")
                conn.close()
                conn = connect(base_url)
                continue
            statuses[status] = statuses.get(status, 0) + 1
            expected = 405 if method == "DELETE" else 200
            if status != expected:
                failures.append(f"round {i}: {method} {path} answered {status}, not {expected}")
    conn.close()
    print(f"check_envoy: {rounds} rounds of a 405 with a 200 kB body then a GET: statuses {statuses}")
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", default="http://127.0.0.1:8080")
    parser.add_argument("--rounds", type=int, default=500)
    args = parser.parse_args()
    base_url = args.base_url.rstrip("/")
    failures = check_too_large(base_url) + check_no_reset_after_405(base_url, args.rounds)
    for failure in failures[:50]:
        print(f"check_envoy: FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
