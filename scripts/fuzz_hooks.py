"""Schemathesis hooks for scripts/fuzz.sh: a rejected request must record nothing.

Before every call the log head is read from /health; after a response with status >= 400 it is read
again, and the check fails if it moved. Runs with one worker, so nothing else appends in between.
FUZZ_URL is the server, FUZZ_PRODUCT which product it is (nuvie, savry, chat or news).
"""

import json
import os
import urllib.error
import urllib.request

import schemathesis

BASE_URL = os.environ.get("FUZZ_URL") or os.environ["NUVIE_FUZZ_URL"]
PRODUCT = os.environ.get("FUZZ_PRODUCT", "nuvie")
_head_before_call: dict[str, int | None] = {"value": None}


def log_head() -> int:
    try:
        with urllib.request.urlopen(f"{BASE_URL}/health", timeout=60) as response:
            body = response.read()
    except urllib.error.HTTPError as error:  # 503 while a projection is failing still carries the head
        body = error.read()
    health = json.loads(body)
    # Nuvie's contract spells it in snake_case, the engine's /health of the others in camelCase.
    return int(health["log_head_position"] if "log_head_position" in health else health["logHeadPosition"])


@schemathesis.hook
def before_call(context, case, kwargs):
    _head_before_call["value"] = log_head()


def _body(response):
    try:
        body = response.json()
        return body if isinstance(body, dict) else None
    except Exception:
        return None


def _error_code(response) -> str | None:
    """Nuvie's `error.code`, Chat's and News's `error`; Savry's errors are only a `message`."""
    body = _body(response)
    if body is None:
        return None
    error = body.get("error")
    if isinstance(error, dict):
        return error.get("code")
    if isinstance(error, str):
        return error
    message = body.get("message")
    return message if isinstance(message, str) else None


def _saved_but_not_yet_visible(response) -> bool:
    """Each product's 503 for a write that is durable but whose read models are late (by design)."""
    if response.status_code != 503:
        return False
    code = _error_code(response) or ""
    if PRODUCT == "nuvie":
        return code == "SERVICE_UNAVAILABLE"
    if PRODUCT == "chat":  # not its other service_unavailable (busy hashing passwords or holding uploads: nothing was done)
        detail = (_body(response) or {}).get("detail") or ""
        return code == "service_unavailable" and detail.startswith("Your change is saved but not yet visible")
    if PRODUCT == "news":
        return code == "Saved but not yet visible"
    if PRODUCT == "savry":
        return code.startswith("Your change is saved but not yet visible")
    return False


@schemathesis.check
def rejected_request_records_nothing(ctx, response, case):
    """A response with status >= 400 must leave the log as it was."""
    before = _head_before_call["value"]
    if before is None or response.status_code < 400:
        return None
    # By design the write is durable and only its read models are late (README, Errors).
    if _saved_but_not_yet_visible(response):
        return None
    # By design a spent refresh token presented again ends its session, recorded (README, Sessions).
    if PRODUCT == "nuvie" and response.status_code == 401 and _error_code(response) == "REFRESH_TOKEN_REUSED":
        return None
    after = log_head()
    if after != before:
        raise AssertionError(
            f"Rejected request recorded events: answered {response.status_code} {_error_code(response)}, "
            f"but the log head moved from {before} to {after}"
        )
    return None
