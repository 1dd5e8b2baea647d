"""Schemathesis hooks for the fuzz run of the live API (deploy/local/fuzz.py loads them through
SCHEMATHESIS_HOOKS).

- Every request is signed in as the fuzz user; its access token (15 minutes) is renewed with the
  refresh token before it expires, so a long run keeps exercising the authenticated operations.
- Every POST carries a fresh Idempotency-Key, so money-moving calls run instead of replaying an
  earlier answer (a key the generator made up would be reused across cases).
"""

import json
import os
import threading
import urllib.request
import uuid

import schemathesis

BASE_URL = os.environ["FUZZ_BASE_URL"].rstrip("/")


@schemathesis.auth(refresh_interval=600)
class FuzzUser:
    """The signed-up fuzz user's bearer token, rotated every 10 minutes."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.access = os.environ["FUZZ_ACCESS_TOKEN"]
        self.refresh = os.environ["FUZZ_REFRESH_TOKEN"]
        self.first = True

    def get(self, case, context):
        with self.lock:
            if self.first:
                self.first = False
                return self.access
            request = urllib.request.Request(
                f"{BASE_URL}/api/accounts/token/refresh/",
                data=json.dumps({"refresh": self.refresh}).encode(),
                headers={"content-type": "application/json"},
                method="POST",
            )
            with urllib.request.urlopen(request, timeout=20) as response:
                tokens = json.load(response)
            self.access, self.refresh = tokens["access"], tokens["refresh"]
            return self.access

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"


@schemathesis.hook
def before_call(context, case, **kwargs):
    if case.method.upper() == "POST":
        case.headers = case.headers or {}
        case.headers["Idempotency-Key"] = str(uuid.uuid4())
