"""Schemathesis hooks for scripts/fuzz.sh: a rejected request must record nothing.

Before every call the log head is read from /health; after a response with status >= 400 it is read
again, and the check fails if it moved. Runs with one worker, so nothing else appends in between.
"""

import json
import os
import urllib.error
import urllib.request

import schemathesis

BASE_URL = os.environ["NUVIE_FUZZ_URL"]
_head_before_call: dict[str, int | None] = {"value": None}


def log_head() -> int:
    try:
        with urllib.request.urlopen(f"{BASE_URL}/health", timeout=60) as response:
            body = response.read()
    except urllib.error.HTTPError as error:  # 503 while a projection is failing still carries the head
        body = error.read()
    return int(json.loads(body)["log_head_position"])


@schemathesis.hook
def before_call(context, case, kwargs):
    _head_before_call["value"] = log_head()


def _error_code(response) -> str | None:
    try:
        return response.json()["error"]["code"]
    except Exception:
        return None


@schemathesis.check
def rejected_request_records_nothing(ctx, response, case):
    """A response with status >= 400 must leave the log as it was."""
    before = _head_before_call["value"]
    if before is None or response.status_code < 400:
        return None
    # By design the write is durable and only its read models are late (README, Errors).
    if response.status_code == 503 and _error_code(response) == "SERVICE_UNAVAILABLE":
        return None
    # By design a spent refresh token presented again ends its session, recorded (README, Sessions).
    if response.status_code == 401 and _error_code(response) == "REFRESH_TOKEN_REUSED":
        return None
    after = log_head()
    if after != before:
        raise AssertionError(
            f"Rejected request recorded events: answered {response.status_code} {_error_code(response)}, "
            f"but the log head moved from {before} to {after}"
        )
    return None
