"""Run localstripe (the Stripe API emulator) for the local stack, bound to 127.0.0.1.

Why not `localstripe --port 8420`: its CLI binds every interface ("::"), keeps its
state in the machine-wide /tmp/localstripe.pickle, and its answers lack fields that
async-stripe 1.0.0-rc.10 requires (non-`Option` fields of the generated types), so
the services would fail to deserialize them. This launcher runs the same aiohttp
app with three changes:

1. It listens on --host/--port (127.0.0.1:8420) only.
2. It keeps its state in --state-file (default .dev/localstripe/store.pickle), so
   customers survive a restart of the stack and checkouts do not share state.
   `--from-scratch` starts empty; `DELETE /_config/data` still resets.
3. It completes every Stripe object it returns, in HTTP answers (a middleware)
   and in webhook payloads (Event export), from the table COMPLETIONS below:
   a field missing from an object of that `object` type gets the default.
   Defaults are values or functions of the object; a dict default merges into
   an existing dict (only missing keys are added). ERROR_COMPLETIONS does the
   same for error bodies. FIXES coerce values localstripe gives the wrong type.
   It also adds routes localstripe lacks (EXTRA_ROUTES).

To cover another gap, add a line to the tables; nothing else changes.
See docs/local-stack.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import pickle
import re
import sys
import zlib
from pathlib import Path
from typing import Any, Callable

from aiohttp import web

from localstripe import resources, server, webhooks
from localstripe.resources import Event, PaymentIntent, PaymentMethod, Store
from localstripe.errors import UserError

# --------------------------------------------------------------------------
# Completion tables
# --------------------------------------------------------------------------

Obj = dict[str, Any]


def _amount_if(*statuses: str) -> Callable[[Obj], int]:
    """The intent's amount when its status is one of `statuses`, else 0."""

    def value(obj: Obj) -> int:
        return int(obj.get("amount") or 0) if obj.get("status") in statuses else 0

    return value


def _charge_amount_captured(obj: Obj) -> int:
    ok = obj.get("status") == "succeeded" and obj.get("captured")
    return int(obj.get("amount") or 0) if ok else 0


def _customer_balance(obj: Obj) -> int:
    # localstripe stores the creation `balance` negated as legacy `account_balance`.
    return -int(obj.get("account_balance") or 0)


def _invoice_prefix(obj: Obj) -> str:
    return f"{zlib.crc32(str(obj.get('id', '')).encode()):08X}"


def _pending_webhooks(_obj: Obj) -> int:
    return len(getattr(webhooks, "_webhooks", {}))


_BILLING_DETAILS = {"address": None, "email": None, "name": None, "phone": None}

# object type -> field -> default. Fields marked (required) are non-Option in
# async-stripe 1.0.0-rc.10 and break deserialization when missing; the others
# make the objects look like Stripe's (all nullable in Stripe's API).
COMPLETIONS: dict[str, dict[str, Any]] = {
    "customer": {
        "address": None,
        "balance": _customer_balance,
        "cash_balance": None,
        "default_source": None,
        "delinquent": False,
        "description": None,
        "discount": None,
        "email": None,
        "invoice_credit_balance": {},
        "invoice_prefix": _invoice_prefix,
        "invoice_settings": {
            "custom_fields": None,
            "default_payment_method": None,
            "footer": None,
            "rendering_options": None,
        },
        "livemode": False,  # (required)
        "metadata": {},
        "name": None,
        "next_invoice_sequence": 1,
        "phone": None,
        "preferred_locales": [],
        "shipping": None,
        "tax_exempt": "none",
        "test_clock": None,
    },
    "payment_intent": {
        "amount_capturable": _amount_if("requires_capture"),  # (required)
        "amount_received": _amount_if("succeeded"),  # (required)
        "application": None,
        "application_fee_amount": None,
        "automatic_payment_methods": None,
        "canceled_at": None,
        "cancellation_reason": None,
        "confirmation_method": "automatic",  # (required)
        "description": None,
        "livemode": False,  # (required)
        "metadata": {},  # (required)
        "on_behalf_of": None,
        "payment_method_options": {},
        "payment_method_types": ["card"],  # (required)
        "processing": None,
        "receipt_email": None,
        "review": None,
        "setup_future_usage": None,
        "shipping": None,
        "source": None,
        "statement_descriptor": None,
        "statement_descriptor_suffix": None,
        "transfer_data": None,
        "transfer_group": None,
    },
    "charge": {
        "amount_captured": _charge_amount_captured,  # (required)
        "application": None,
        "application_fee": None,
        "application_fee_amount": None,
        "billing_details": _BILLING_DETAILS,  # (required)
        "calculated_statement_descriptor": None,
        "disputed": False,  # (required)
        "failure_balance_transaction": None,
        "fraud_details": {},
        "livemode": False,  # (required)
        "on_behalf_of": None,
        "receipt_url": None,
        "review": None,
        "shipping": None,
        "source_transfer": None,
        "statement_descriptor_suffix": None,
        "transfer_data": None,
        "transfer_group": None,
    },
    "event": {
        "account": None,
        "livemode": False,  # (required)
        "pending_webhooks": _pending_webhooks,  # (required)
        "request": {"id": None, "idempotency_key": None},  # (required)
    },
    "payment_method": {
        "billing_details": _BILLING_DETAILS,  # (required)
        "livemode": False,  # (required)
        "metadata": {},
        "customer": None,
    },
    "setup_intent": {
        "application": None,
        "attach_to_self": None,
        "cancellation_reason": None,
        "description": None,
        "flow_directions": None,
        "last_setup_error": None,
        "latest_attempt": None,
        "livemode": False,  # (required)
        "mandate": None,
        "on_behalf_of": None,
        "payment_method_options": {},
        "payment_method_types": ["card"],  # (required)
        "single_use_mandate": None,
        "usage": "off_session",  # (required)
    },
    "refund": {
        "charge": None,
        "description": None,
        "failure_reason": None,
        "payment_intent": None,
        "reason": None,
        "receipt_number": None,
        "source_transfer_reversal": None,
        "transfer_reversal": None,
    },
}


def _error_type(obj: Obj) -> str:
    # localstripe calls every error invalid_request_error; Stripe reports
    # declines and failed authentications as card_error.
    code = obj.get("code") or ""
    if code in ("card_declined", "payment_intent_authentication_failure", "expired_card",
                "incorrect_cvc", "processing_error", "authentication_required"):
        return "card_error"
    return "invalid_request_error"


# Nested error objects: PaymentIntent.last_payment_error, SetupIntent.last_setup_error.
# `type` is required by async-stripe's ApiErrors.
ERROR_COMPLETIONS: dict[str, Any] = {"type": _error_type}
ERROR_FIELDS = ("last_payment_error", "last_setup_error")


def _int_or_keep(value: Any) -> Any:
    try:
        return int(value)
    except (TypeError, ValueError):
        return value


# object type -> dotted path -> coercion. localstripe keeps form-encoded values
# as strings where Stripe (and async-stripe's i64 fields) have integers.
FIXES: dict[str, dict[str, Callable[[Any], Any]]] = {
    "payment_method": {"card.exp_month": _int_or_keep, "card.exp_year": _int_or_keep},
    "card": {"exp_month": _int_or_keep, "exp_year": _int_or_keep},
}

# Subtrees that hold user data, never Stripe objects.
_OPAQUE_KEYS = frozenset({"metadata"})


def _fill(obj: Obj, defaults: dict[str, Any]) -> None:
    for key, default in defaults.items():
        if callable(default):
            if key not in obj:
                obj[key] = default(obj)
        elif isinstance(default, dict):
            if key not in obj:
                obj[key] = json.loads(json.dumps(default))
            elif isinstance(obj[key], dict):
                _fill(obj[key], default)
        elif key not in obj:
            obj[key] = json.loads(json.dumps(default))


def _fix(obj: Obj, fixes: dict[str, Callable[[Any], Any]]) -> None:
    for path, coerce in fixes.items():
        *parents, leaf = path.split(".")
        target: Any = obj
        for part in parents:
            target = target.get(part) if isinstance(target, dict) else None
        if isinstance(target, dict) and leaf in target:
            target[leaf] = coerce(target[leaf])


def complete(value: Any) -> Any:
    """Complete every Stripe object inside `value` in place; returns `value`."""
    if isinstance(value, list):
        for item in value:
            complete(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in _OPAQUE_KEYS:
                complete(item)
        kind = value.get("object")
        if isinstance(kind, str) and not value.get("deleted"):
            _fix(value, FIXES.get(kind, {}))
            _fill(value, COMPLETIONS.get(kind, {}))
        for field in ERROR_FIELDS:
            if isinstance(value.get(field), dict):
                _fill(value[field], ERROR_COMPLETIONS)
    return value


def complete_error_body(body: Any) -> Any:
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        err = body["error"]
        if err.get("type") == "invalid_request_error" and _error_type(err) == "card_error":
            err["type"] = "card_error"
    return body


def _dumps(value: Any) -> str:
    return json.dumps(value, indent=2, sort_keys=True) + "\n"


@web.middleware
async def completion_middleware(request: web.Request, handler):
    response = await handler(request)
    if (
        isinstance(response, web.Response)
        and response.content_type == "application/json"
        and response.body
    ):
        try:
            body = json.loads(response.body)
        except ValueError:
            return response
        body = complete_error_body(body) if response.status >= 400 else complete(body)
        return web.json_response(body, status=response.status, dumps=_dumps)
    return response


# --------------------------------------------------------------------------
# Extra routes
# --------------------------------------------------------------------------


async def list_customer_payment_methods(request: web.Request) -> web.Response:
    """GET /v1/customers/{id}/payment_methods (missing in localstripe)."""
    query = server.unflatten_data(request.query)
    expand = query.pop("expand", None)
    try:
        listing = PaymentMethod._api_list_all(
            request.path,
            customer=request.match_info["id"],
            type=query.get("type", "card"),
            limit=query.get("limit"),
            starting_after=query.get("starting_after"),
        )
        return web.json_response(listing._export(expand=expand), dumps=_dumps)
    except UserError as err:
        return err.to_response()


# Stripe.js calls these with the publishable key (`key` in the body); localstripe accepts such a
# key only on a few routes and refuses `client_secret` on PaymentIntent confirmation.
_PK_ROUTES = re.compile(r"^/v1/payment_methods$|^/v1/payment_intents/(pi_\w+)/confirm$")


@web.middleware
async def publishable_key_middleware(request: web.Request, handler):
    """POST /v1/payment_methods (stripe.createPaymentMethod) and POST
    /v1/payment_intents/{id}/confirm (stripe.confirmCardPayment) with a publishable key, checking
    the intent's client secret; any call with a secret key goes to localstripe unchanged."""
    match = _PK_ROUTES.match(request.path)
    if request.method != "POST" or not match or server.get_api_key(request) is not None:
        return await handler(request)
    data = dict(await server.get_post_data(request, remove_auth=False) or {})
    key = data.pop("key", None)
    for unused in ("payment_user_agent", "referrer", "use_stripe_sdk"):
        data.pop(unused, None)
    try:
        if not (isinstance(key, str) and key.startswith("pk_")):
            raise UserError(401, "Unauthorized")
        if match.group(1):
            intent = PaymentIntent._api_retrieve(match.group(1))
            if data.pop("client_secret", None) != intent.client_secret:
                raise UserError(401, "Unauthorized")
            obj = PaymentIntent._api_confirm(match.group(1), **data)
        else:
            obj = PaymentMethod._api_create(**data)
        return web.json_response(obj._export(), dumps=_dumps)
    except UserError as err:
        return err.to_response()
    finally:
        resources.store.dump_to_disk()


_JS_EXTRAS = Path(__file__).with_name("localstripe-js-extras.js")


async def stripe_js(_request: web.Request) -> web.Response:
    """GET /js.stripe.com/v3/: localstripe's Stripe.js stand-in followed by our additions
    (localstripe-js-extras.js), which fill what the add-card and wallet flows call and the
    stand-in lacks (createPaymentMethod; confirmCardPayment without a forced 3-D Secure modal)."""
    base = (Path(server.__file__).parent / "localstripe-v3.js").read_text()
    extras = _JS_EXTRAS.read_text() if _JS_EXTRAS.exists() else ""
    return web.Response(text=base + "\n" + extras, content_type="application/javascript")


EXTRA_ROUTES = [
    ("GET", "/v1/customers/{id}/payment_methods", list_customer_payment_methods),
]


# --------------------------------------------------------------------------
# Wiring
# --------------------------------------------------------------------------


# localstripe writes its whole store to disk on every change of any object: a card charge changes
# several, so each costs a few pickles of everything ever stored, and a long-lived state file made
# a charge take 100 ms of CPU (benchmarks saw the stand-in outspend the services it stands in for).
# Writes are coalesced instead: the first change schedules one write DUMP_DELAY later, and the
# server's cleanup writes what is still pending when it stops (SIGTERM, SIGINT).
DUMP_DELAY = 2.0
_pending_dump: asyncio.TimerHandle | None = None


def _use_state_file(path: Path) -> None:
    """Point localstripe's pickle persistence at `path` instead of /tmp, written coalesced."""
    path.parent.mkdir(parents=True, exist_ok=True)

    def try_load_from_disk(self: Store) -> None:
        try:
            with open(path, "rb") as f:
                old = pickle.load(f)
        except (FileNotFoundError, EOFError):
            return
        except Exception as err:  # a state file from another localstripe version
            logging.getLogger(__name__).warning("ignoring state file %s: %s", path, err)
            return
        self.clear()
        self.update(old)

    def write_now() -> None:
        global _pending_dump
        if _pending_dump is not None:
            _pending_dump.cancel()
            _pending_dump = None
        tmp = path.with_suffix(".tmp")
        with open(tmp, "wb") as f:
            pickle.dump(dict(resources.store), f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)

    def dump_to_disk(self: Store) -> None:
        global _pending_dump
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # outside the server (a reset at start-up): at once
            write_now()
            return
        if _pending_dump is None:
            _pending_dump = loop.call_later(DUMP_DELAY, write_now)

    Store.try_load_from_disk = try_load_from_disk  # type: ignore[method-assign]
    Store.dump_to_disk = dump_to_disk  # type: ignore[method-assign]
    global flush_state
    flush_state = write_now


def flush_state() -> None:
    """Writes a pending change of the store now; replaced by `_use_state_file`."""


def _index_store_by_type() -> None:
    """localstripe lists a type by scanning every stored object, and a charge's answer lists its
    refunds twice: on a store of 7,000 objects a card charge cost 50 ms. An index of the objects by
    type, kept by the store's writes (in the store's own order), makes a list cost what it lists."""
    by_type: dict[str, dict[str, Any]] = {}

    def kind(key: str) -> str | None:
        # Objects are stored as "<object>:<id>"; the few keys without a colon are never listed.
        return key.split(":", 1)[0] if ":" in key else None

    def rebuild(store: Store) -> None:
        by_type.clear()
        for key, value in dict.items(store):
            if (k := kind(key)) is not None:
                by_type.setdefault(k, {})[key] = value

    set_item, del_item, clear, update = Store.__setitem__, Store.__delitem__, Store.clear, Store.update

    def __setitem__(self: Store, key: str, value: Any) -> None:
        set_item(self, key, value)
        if (k := kind(key)) is not None:
            by_type.setdefault(k, {})[key] = value

    def __delitem__(self: Store, key: str) -> None:
        del_item(self, key)
        if (k := kind(key)) is not None:
            by_type.get(k, {}).pop(key, None)

    def _clear(self: Store) -> None:
        clear(self)
        rebuild(self)

    def _update(self: Store, *args: Any, **kwargs: Any) -> None:
        update(self, *args, **kwargs)
        rebuild(self)

    def _api_list_all(cls, url, limit=None, starting_after=None, **kwargs):
        if kwargs:
            raise UserError(400, "Unexpected " + ", ".join(kwargs.keys()))
        listing = resources.List(url, limit=limit, starting_after=starting_after)
        listing._list = list(by_type.get(cls.object, {}).values())
        return listing

    Store.__setitem__ = __setitem__  # type: ignore[method-assign]
    Store.__delitem__ = __delitem__  # type: ignore[method-assign]
    Store.clear = _clear  # type: ignore[method-assign]
    Store.update = _update  # type: ignore[method-assign]
    resources.StripeObject._api_list_all = classmethod(_api_list_all)  # type: ignore[method-assign]
    rebuild(resources.store)


def _complete_events() -> None:
    """Webhook payloads are built from Event._export, outside any HTTP answer."""
    original = Event._export

    def _export(self, expand=None):
        return complete(original(self, expand=expand))

    Event._export = _export  # type: ignore[method-assign]


def build_app() -> web.Application:
    app = server.app
    app.middlewares.insert(0, completion_middleware)
    app.middlewares.insert(1, publishable_key_middleware)
    for method, path, handler in EXTRA_ROUTES:
        app.router.add_route(method, path, handler)
    # Replace the stand-in's own route (registered at import) with the extended script.
    for resource in app.router.resources():
        if getattr(resource, "canonical", None) == "/js.stripe.com/v3/":
            for route in resource:
                if route.method == "GET":
                    route._handler = stripe_js  # aiohttp keeps the handler here
    _complete_events()
    return app


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default=os.environ.get("LOCALSTRIPE_HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("LOCALSTRIPE_PORT", "8420")))
    parser.add_argument(
        "--state-file",
        type=Path,
        default=Path(os.environ.get("LOCALSTRIPE_STATE_FILE", ".dev/localstripe/store.pickle")),
    )
    parser.add_argument("--from-scratch", action="store_true", help="ignore the saved state")
    args = parser.parse_args(argv)

    logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(asctime)s %(name)s %(message)s")
    _use_state_file(args.state_file.resolve())
    _index_store_by_type()
    if not args.from_scratch:
        resources.store.try_load_from_disk()
    app = build_app()

    async def flush_pending(_app: web.Application) -> None:
        if _pending_dump is not None:
            flush_state()

    app.on_cleanup.append(flush_pending)
    access_log = logging.getLogger("aiohttp.access")
    web.run_app(app, host=args.host, port=args.port, access_log=access_log, print=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
