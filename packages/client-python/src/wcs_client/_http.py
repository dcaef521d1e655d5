"""What both clients share about talking to the API, written once and free of I/O.

A call is a *flow*: a generator that yields actions (:class:`Send` an HTTP request,
:class:`Sleep`, :class:`Notify` a progress callback) and receives their results. The sync client
runs flows with ``httpx.Client`` and ``time.sleep``, the async client with ``httpx.AsyncClient``
and ``asyncio.sleep``; request building, response-to-error mapping, the retry decision and the
polling helpers (``_polling.py``) exist only here.
"""

from __future__ import annotations

import email.utils
import math
import os
import random
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Callable, Dict, Generator, Optional, TypeVar, Union, cast
from urllib.parse import quote

import httpx

from ._errors import ServiceError
from ._types import CreditsInfo
from ._version import __version__

API_KEY_ENV = "SERVICE_API_KEY"
BASE_URL_ENV = "SERVICE_BASE_URL"
DEFAULT_BASE_URL = "http://localhost:3002"
DEFAULT_TIMEOUT = 180.0
DEFAULT_MAX_RETRIES = 2
USER_AGENT = f"wcs-client-python/{__version__}"

RETRY_STATUSES = frozenset({429, 502, 503})
"""Statuses worth another attempt (rate limit, gateway trouble, queue down)."""

DETERMINISTIC_CODES = frozenset(
    {
        "MODEL_NOT_CONFIGURED",
        "TARGET_HTTP_ERROR",
        "TARGET_BLOCKED",
        "TLS_ERROR",
        "TOO_MANY_REDIRECTS",
        "TARGET_TOO_LARGE",
        "SEARCH_PROVIDER_FAILED",
        "UNSUPPORTED_CONTENT_TYPE",
    }
)
"""Error codes that answer the same however often they are retried: never retried."""

BACKOFF_INITIAL = 0.5
BACKOFF_MAX = 30.0
BACKOFF_JITTER = 0.2

T = TypeVar("T")


# -- configuration ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    api_key: str
    base_url: str
    timeout: float
    max_retries: int

    def client_options(self) -> Dict[str, Any]:
        """Keyword arguments for ``httpx.Client`` / ``httpx.AsyncClient``."""
        return {
            "base_url": self.base_url,
            "headers": {
                "Authorization": f"Bearer {self.api_key}",
                "Content-Type": "application/json",
                "Accept": "application/json",
                "User-Agent": USER_AGENT,
            },
            "timeout": httpx.Timeout(self.timeout),
            "follow_redirects": False,
        }


def resolve_config(
    api_key: Optional[str], base_url: Optional[str], timeout: float, max_retries: int
) -> Config:
    """Arguments first, then SERVICE_API_KEY / SERVICE_BASE_URL, then the defaults."""
    key = api_key or os.environ.get(API_KEY_ENV) or ""
    if not key:
        raise ServiceError(
            f"No API key: pass api_key=... or set the {API_KEY_ENV} environment variable",
            status=0,
            code="MISSING_API_KEY",
        )
    url = (base_url or os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL).strip().rstrip("/")
    if not (url.startswith("http://") or url.startswith("https://")):
        raise ValueError(f"base_url must start with http:// or https://, got {url!r}")
    if not is_number(max_retries, integer=True) or max_retries < 0:
        raise ValueError(f"max_retries must be an integer >= 0, got {max_retries!r}")
    if not is_number(timeout) or timeout <= 0:
        raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
    return Config(api_key=key, base_url=url, timeout=float(timeout), max_retries=max_retries)


def is_number(value: object, *, integer: bool = False) -> bool:
    """A finite int (or float unless ``integer``), never a bool: arguments are checked at run
    time too, for callers without a type checker."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return not integer and isinstance(value, float) and math.isfinite(value)


# -- requests --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ApiRequest:
    """One API call: ``path`` is relative to the base URL; ``json`` is the body, if any."""

    method: str
    path: str
    json: Optional[Dict[str, Any]] = None
    params: Optional[Dict[str, Any]] = None
    text: bool = False
    """The 2xx answer is text (the ledger's CSV), returned as ``str`` instead of parsed JSON."""
    binary: bool = False
    """The 2xx answer is a PNG (a screenshot), returned as ``bytes``."""
    content: Optional[bytes] = None
    """A raw body instead of JSON (a file sent to ``/v1/parse``; its options go in ``params``)."""

    def headers(self) -> Optional[Dict[str, str]]:
        """Per-request headers on top of the client's: a text call asks for CSV, a binary one
        for a PNG, not JSON (errors still come as JSON); a raw body is not JSON either."""
        if self.content is not None:
            return {"Content-Type": "application/octet-stream"}
        if self.binary:
            return {"Accept": "image/png, application/json;q=0.5"}
        return {"Accept": "text/csv, text/plain;q=0.9, */*;q=0.1"} if self.text else None


def compact(**fields: Any) -> Dict[str, Any]:
    """The fields the caller passed: ``None`` means "not passed" and is never sent."""
    return {name: value for name, value in fields.items() if value is not None}


def path_id(value: object) -> str:
    """An id as one path segment (so an odd id can never reach another route)."""
    if not isinstance(value, str) or not value:
        raise ValueError(f"id must be a non-empty string, got {value!r}")
    return quote(value, safe="")


# -- actions a flow asks its driver to perform ------------------------------------------------


@dataclass(frozen=True)
class Send:
    """Send ``request``; the driver answers with the ``httpx.Response`` or throws the
    ``httpx.TransportError`` into the flow."""

    request: ApiRequest


@dataclass(frozen=True)
class Sleep:
    seconds: float


@dataclass(frozen=True)
class Notify:
    """Call ``callback(payload)`` (the async driver awaits an awaitable result)."""

    callback: Callable[[Any], object]
    payload: Any


Action = Union[Send, Sleep, Notify]
Flow = Generator[Action, Any, T]


def call(request: ApiRequest, config: Config) -> Flow[Any]:
    """One API call with retries; returns the parsed JSON body or raises ServiceError."""
    retries = 0
    while True:
        try:
            response = yield Send(request)
        except httpx.TransportError as exc:
            raise transport_error(exc, request, config) from exc
        try:
            return result_of(response, text=request.text, binary=request.binary)
        except ServiceError as err:
            delay = retry_delay(
                err, response.headers.get("retry-after"), retries, config.max_retries
            )
            if delay is None:
                raise
        retries += 1
        yield Sleep(delay)


# -- responses and errors ------------------------------------------------------------------


def credits_of(response: httpx.Response) -> Optional[CreditsInfo]:
    """The ``X-Credits-Used`` / ``X-Credits-Remaining`` headers of a billable answer, else None."""
    used = response.headers.get("x-credits-used")
    remaining = response.headers.get("x-credits-remaining")
    if used is None or remaining is None:
        return None
    try:
        return CreditsInfo(used=int(used), remaining=int(remaining))
    except ValueError:
        return None


def result_of(response: httpx.Response, *, text: bool = False, binary: bool = False) -> Any:
    """The parsed JSON body of a 2xx response (its text when ``text``, its bytes when
    ``binary``); any other status raises ServiceError (error bodies are JSON either way)."""
    status = response.status_code
    if not 200 <= status < 300:
        raise error_of(response)
    if binary:
        return response.content
    if text:
        return response.text
    if not response.content:
        return None
    try:
        return response.json()
    except ValueError:
        raise ServiceError(
            f"HTTP {status}: the response body is not JSON", status=status, code=None
        ) from None


def error_of(response: httpx.Response) -> ServiceError:
    """Maps an error response (``{success: false, error, code, details?}``) to ServiceError."""
    status = response.status_code
    try:
        parsed: object = response.json()
    except ValueError:
        parsed = None
    body = cast(Dict[str, object], parsed) if isinstance(parsed, dict) else {}
    message = body.get("error")
    code = body.get("code")
    details = body.get("details")
    return ServiceError(
        message if isinstance(message, str) and message else f"HTTP {status}",
        status=status,
        code=code if isinstance(code, str) else None,
        details=cast(Dict[str, Any], details) if isinstance(details, dict) else None,
    )


def transport_error(exc: httpx.TransportError, request: ApiRequest, config: Config) -> ServiceError:
    """No HTTP response: a timeout is CLIENT_TIMEOUT, anything else NETWORK_ERROR (status 0)."""
    target = f"{request.method} {config.base_url}{request.path}"
    if isinstance(exc, httpx.TimeoutException):
        return ServiceError(
            f"No response to {target} within {config.timeout:g} s ({type(exc).__name__})",
            status=0,
            code="CLIENT_TIMEOUT",
        )
    reason = str(exc) or type(exc).__name__
    return ServiceError(f"{target} failed: {reason}", status=0, code="NETWORK_ERROR")


# -- retries -----------------------------------------------------------------------------------


def retry_delay(
    error: ServiceError, retry_after: Optional[str], retries_done: int, max_retries: int
) -> Optional[float]:
    """Seconds to wait before the next attempt, or ``None`` when the error is final.

    429, 502 and 503 are retried unless their code is deterministic; the wait is the
    ``Retry-After`` header when the response has one, else exponential backoff.
    """
    if retries_done >= max_retries:
        return None
    if error.status not in RETRY_STATUSES or error.code in DETERMINISTIC_CODES:
        return None
    wait = parse_retry_after(retry_after)
    return wait if wait is not None else backoff(retries_done)


def parse_retry_after(value: Optional[str], now: Optional[datetime] = None) -> Optional[float]:
    """``Retry-After`` as seconds (delta-seconds or HTTP date); ``None`` when absent or invalid."""
    if value is None or not value.strip():
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        seconds = (when - (now or datetime.now(timezone.utc))).total_seconds()
    if not math.isfinite(seconds):
        return None
    return max(0.0, seconds)


def backoff(retries_done: int) -> float:
    """0.5 s, 1 s, 2 s, … capped at 30 s, each ±20 %."""
    base = min(BACKOFF_INITIAL * (2 ** min(retries_done, 16)), BACKOFF_MAX)
    jitter = random.uniform(1 - BACKOFF_JITTER, 1 + BACKOFF_JITTER)
    return min(BACKOFF_MAX, base * jitter)
