"""Behaviour the real service cannot be made to show on demand, against a local fake of the API:
retries (429 + Retry-After, 502/503, deterministic codes, max_retries), request timeouts and
network errors, bodies that are not the API's shape."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from typing import Any, List

import httpx
import pytest

from wcs_client import AsyncServiceClient, ServiceClient, ServiceError
from wcs_client._http import backoff, parse_retry_after

from conftest import FakeApi, closed_port

OK = {"success": True, "data": {"markdown": "# Hello"}}

# -- retries -----------------------------------------------------------------------------------


def test_429_is_retried_after_retry_after(fake: FakeApi, fake_client: ServiceClient) -> None:
    fake.error(429, "RATE_LIMITED", "Rate limit exceeded", headers={"Retry-After": "1"}).reply(200, OK)
    started = time.monotonic()
    result = fake_client.scrape("https://example.com/")
    elapsed = time.monotonic() - started
    assert result == OK
    assert len(fake.requests) == 2
    assert elapsed >= 0.9, f"retried after {elapsed:.2f} s, Retry-After said 1 s"
    assert fake.requests[1].at - fake.requests[0].at >= 0.9


def test_429_retry_after_http_date(fake: FakeApi, fake_client: ServiceClient) -> None:
    when = format_datetime(datetime.now(timezone.utc) + timedelta(seconds=2), usegmt=True)
    fake.error(429, "RATE_LIMITED", headers={"Retry-After": when}).reply(200, OK)
    assert fake_client.scrape("https://example.com/") == OK
    assert len(fake.requests) == 2
    # The date has one-second resolution: the wait is between 1 and 2 seconds.
    assert fake.requests[1].at - fake.requests[0].at >= 0.9


@pytest.mark.parametrize("status,code", [(503, "UNAVAILABLE"), (502, "TARGET_UNREACHABLE"), (502, None)])
def test_502_and_503_are_retried_with_backoff(
    fake: FakeApi, fake_client: ServiceClient, status: int, code: Any
) -> None:
    body = {"success": False, "error": "try again"} if code is None else None
    if body is not None:
        fake.reply(status, body)
    else:
        fake.error(status, code)
    fake.reply(200, OK)
    assert fake_client.scrape("https://example.com/") == OK
    assert len(fake.requests) == 2
    gap = fake.requests[1].at - fake.requests[0].at
    assert 0.35 <= gap < 2.0, f"first backoff should be 0.5 s ±20 %, was {gap:.2f} s"


@pytest.mark.parametrize(
    "status,code",
    [
        (502, "TARGET_HTTP_ERROR"),
        (502, "TARGET_BLOCKED"),
        (502, "SEARCH_PROVIDER_FAILED"),
        (503, "MODEL_NOT_CONFIGURED"),
        (429, "UNSUPPORTED_CONTENT_TYPE"),
    ],
)
def test_deterministic_codes_are_not_retried(
    fake: FakeApi, fake_client: ServiceClient, status: int, code: str
) -> None:
    fake.reply(
        status,
        {"success": False, "error": "Target responded with HTTP 404", "code": code, "details": {"statusCode": 404}},
    ).reply(200, OK)
    with pytest.raises(ServiceError) as info:
        fake_client.scrape("https://example.com/")
    assert len(fake.requests) == 1
    err = info.value
    assert (err.status, err.code, err.message) == (status, code, "Target responded with HTTP 404")
    assert err.details == {"statusCode": 404}


@pytest.mark.parametrize("status,code", [(500, "INTERNAL"), (504, "TIMEOUT"), (400, "VALIDATION_FAILED")])
def test_other_errors_are_not_retried(fake: FakeApi, fake_client: ServiceClient, status: int, code: str) -> None:
    fake.error(status, code, "nope").reply(200, OK)
    with pytest.raises(ServiceError) as info:
        fake_client.scrape("https://example.com/")
    assert (info.value.status, info.value.code, str(info.value)) == (status, code, "nope")
    assert len(fake.requests) == 1


def test_max_retries_zero_disables_retries(fake: FakeApi) -> None:
    fake.error(503, "UNAVAILABLE", "Queue unavailable").reply(200, OK)
    with ServiceClient("k", fake.url, max_retries=0) as c:
        with pytest.raises(ServiceError) as info:
            c.scrape("https://example.com/")
    assert (info.value.status, info.value.code) == (503, "UNAVAILABLE")
    assert len(fake.requests) == 1


def test_retries_stop_after_max_retries(fake: FakeApi) -> None:
    for _ in range(4):
        fake.error(429, "RATE_LIMITED", "Rate limit exceeded", headers={"Retry-After": "0"})
    with ServiceClient("k", fake.url, max_retries=2) as c:
        with pytest.raises(ServiceError) as info:
            c.map("https://example.com")
    assert (info.value.status, info.value.code, info.value.message) == (429, "RATE_LIMITED", "Rate limit exceeded")
    assert len(fake.requests) == 3  # the first attempt + 2 retries


def test_async_client_retries_too(fake: FakeApi) -> None:
    fake.error(429, "RATE_LIMITED", headers={"Retry-After": "1"}).reply(200, OK)

    async def main() -> Any:
        async with AsyncServiceClient("k", fake.url) as c:
            return await c.scrape("https://example.com/")

    started = time.monotonic()
    assert asyncio.run(main()) == OK
    assert time.monotonic() - started >= 0.9
    assert len(fake.requests) == 2


def test_backoff_and_retry_after_parsing() -> None:
    for _ in range(50):
        assert 0.4 <= backoff(0) <= 0.6
        assert 0.8 <= backoff(1) <= 1.2
        assert 1.6 <= backoff(2) <= 2.4
        assert backoff(10) <= 30.0
        assert backoff(5000) <= 30.0
    now = datetime(2026, 1, 1, tzinfo=timezone.utc)
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after("-3") == 0.0
    assert parse_retry_after(None) is None
    assert parse_retry_after("soon") is None
    assert parse_retry_after("Thu, 01 Jan 2026 00:00:05 GMT", now=now) == 5.0


# -- errors without an HTTP response -------------------------------------------------------------


def test_request_timeout_is_client_timeout_and_not_retried(fake: FakeApi) -> None:
    fake.reply(hang=True)
    with ServiceClient("k", fake.url, timeout=0.3) as c:
        with pytest.raises(ServiceError) as info:
            c.scrape("https://example.com/")
    err = info.value
    assert (err.status, err.code) == (0, "CLIENT_TIMEOUT")
    assert "/v1/scrape" in err.message and "0.3 s" in err.message
    assert len(fake.requests) == 1


def test_async_request_timeout(fake: FakeApi) -> None:
    fake.reply(hang=True)

    async def main() -> None:
        async with AsyncServiceClient("k", fake.url, timeout=0.3) as c:
            await c.get_webhook_secret()

    with pytest.raises(ServiceError) as info:
        asyncio.run(main())
    assert (info.value.status, info.value.code) == (0, "CLIENT_TIMEOUT")


def test_connection_refused_is_network_error_and_not_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    with ServiceClient("k", f"http://127.0.0.1:{closed_port()}", max_retries=2) as c:
        attempts: List[str] = []
        send = c._send

        def counting_send(request: Any) -> Any:
            attempts.append(request.path)
            return send(request)

        monkeypatch.setattr(c, "_send", counting_send)
        with pytest.raises(ServiceError) as info:
            c.scrape("https://example.com/")
    err = info.value
    assert (err.status, err.code, err.details) == (0, "NETWORK_ERROR", None)
    assert "/v1/scrape" in err.message and "refused" in err.message.lower()
    assert isinstance(err.__cause__, httpx.ConnectError)
    assert attempts == ["/v1/scrape"], "a network error must not be retried"


def test_non_json_error_body(fake: FakeApi, fake_client: ServiceClient) -> None:
    fake.reply(500, raw=b"<html>Internal Server Error</html>", headers={"Content-Type": "text/html"})
    with pytest.raises(ServiceError) as info:
        fake_client.get_webhook_secret()
    assert (info.value.status, info.value.code, info.value.message) == (500, None, "HTTP 500")


def test_non_json_success_body(fake: FakeApi, fake_client: ServiceClient) -> None:
    fake.reply(200, raw=b"<html>a proxy page</html>", headers={"Content-Type": "text/html"})
    with pytest.raises(ServiceError) as info:
        fake_client.get_webhook_secret()
    assert info.value.status == 200
    assert "not JSON" in info.value.message


def test_service_error_is_picklable_and_readable() -> None:
    import pickle

    err = ServiceError("Crawl not found", status=404, code="NOT_FOUND", details={"a": 1})
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.status, copy.code, copy.message, copy.details) == (404, "NOT_FOUND", "Crawl not found", {"a": 1})
    assert str(copy) == "Crawl not found"
    assert "404" in repr(copy)
