"""Behaviour that the real service cannot be made to show on demand, against a local fake of the
API: retries (429 + Retry-After, 502/503, deterministic codes, max_retries), request timeouts,
the exact requests each method sends, and the polling helpers' paging."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from typing import Any, Callable, Dict, List

import httpx
import pytest

from wcs_client import AsyncServiceClient, ServiceClient, ServiceError, __version__
from wcs_client._http import backoff, parse_retry_after

from conftest import FakeApi, Reply, closed_port

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


# -- what each method sends ----------------------------------------------------------------------


def test_headers(fake: FakeApi, fake_client: ServiceClient) -> None:
    fake_client.get_webhook_secret()
    headers = fake.requests[0].headers
    assert headers["authorization"] == "Bearer test-key"
    assert headers["content-type"] == "application/json"
    assert headers["user-agent"] == f"wcs-client-python/{__version__}"


U = "https://example.com/"

CASES: List[Any] = [
    ("scrape bare", lambda c: c.scrape(U), "POST", "/v1/scrape", {"url": U}),
    (
        "scrape all",
        lambda c: c.scrape(U, format="html", only_main_content=False, engine="fetch", wait_for=500, timeout_ms=9000),
        "POST",
        "/v1/scrape",
        {"url": U, "format": "html", "onlyMainContent": False, "engine": "fetch", "waitFor": 500, "timeout": 9000},
    ),
    (
        "start_crawl all",
        lambda c: c.start_crawl(
            U,
            max_depth=1,
            max_pages=7,
            include_paths=("^/blog/",),
            exclude_paths=["/drafts/"],
            allow_subdomains=True,
            ignore_robots_txt=True,
            format="text",
            only_main_content=False,
            delay_ms=250,
        ),
        "POST",
        "/v1/crawl",
        {
            "url": U,
            "maxDepth": 1,
            "maxPages": 7,
            "includePaths": ["^/blog/"],
            "excludePaths": ["/drafts/"],
            "allowSubdomains": True,
            "ignoreRobotsTxt": True,
            "format": "text",
            "onlyMainContent": False,
            "delayMs": 250,
        },
    ),
    ("get_crawl_status", lambda c: c.get_crawl_status("abc"), "GET", "/v1/crawl/abc", None),
    ("get_crawl_status page", lambda c: c.get_crawl_status("abc", skip=5, limit=2), "GET", "/v1/crawl/abc?skip=5&limit=2", None),
    ("cancel_crawl", lambda c: c.cancel_crawl("a/b"), "DELETE", "/v1/crawl/a%2Fb", None),
    (
        "map all",
        lambda c: c.map(U, max_urls=10, search="docs", include_subdomains=True, ignore_sitemap=True, timeout_ms=5000),
        "POST",
        "/v1/map",
        {"url": U, "max_urls": 10, "search": "docs", "includeSubdomains": True, "ignoreSitemap": True, "timeout": 5000},
    ),
    (
        "search all",
        lambda c: c.search(
            "q", num_results=3, country="de", lang="de", scrape=False, fresh=True, format="text",
            only_main_content=False, timeout_ms=4000,
        ),
        "POST",
        "/v1/search",
        {
            "query": "q", "num_results": 3, "country": "de", "lang": "de", "scrape": False, "fresh": True,
            "format": "text", "onlyMainContent": False, "timeout": 4000,
        },
    ),
    (
        "extract",
        lambda c: c.extract(U, schema={"title": "string"}, prompt="p", timeout_ms=6000),
        "POST",
        "/v1/extract",
        {"url": U, "schema": {"title": "string"}, "prompt": "p", "timeout": 6000},
    ),
    (
        "create_monitor",
        lambda c: c.create_monitor(U, interval="weekly", webhook_url="https://hooks.example/x"),
        "POST",
        "/v1/monitor",
        {"url": U, "interval": "weekly", "webhookUrl": "https://hooks.example/x"},
    ),
    ("list_monitors", lambda c: c.list_monitors(), "GET", "/v1/monitor", None),
    ("list_monitors page", lambda c: c.list_monitors(skip=0, limit=3), "GET", "/v1/monitor?skip=0&limit=3", None),
    ("get_monitor", lambda c: c.get_monitor("m1"), "GET", "/v1/monitor/m1", None),
    ("delete_monitor", lambda c: c.delete_monitor("m1"), "DELETE", "/v1/monitor/m1", None),
    (
        "start_batch_scrape urls",
        lambda c: c.start_batch_scrape([U], format="json", only_main_content=False),
        "POST",
        "/v1/batch/scrape",
        {"urls": [U], "format": "json", "onlyMainContent": False},
    ),
    (
        "start_batch_scrape items",
        lambda c: c.start_batch_scrape(items=[{"id": "a", "url": U}, {"url": U}]),
        "POST",
        "/v1/batch/scrape",
        {"items": [{"id": "a", "url": U}, {"url": U}]},
    ),
    (
        "start_batch_scrape dicts as urls",
        lambda c: c.start_batch_scrape([{"id": "a", "url": U}]),
        "POST",
        "/v1/batch/scrape",
        {"items": [{"id": "a", "url": U}]},
    ),
    ("get_batch_scrape_status", lambda c: c.get_batch_scrape_status("b1", limit=10), "GET", "/v1/batch/scrape/b1?limit=10", None),
    ("get_webhook_secret", lambda c: c.get_webhook_secret(), "GET", "/v1/webhook/secret", None),
]


@pytest.mark.parametrize("name,invoke,method,path,body", CASES, ids=[c[0] for c in CASES])
def test_request_shapes(
    fake: FakeApi,
    fake_client: ServiceClient,
    name: str,
    invoke: Callable[[ServiceClient], Any],
    method: str,
    path: str,
    body: Any,
) -> None:
    invoke(fake_client)
    assert len(fake.requests) == 1
    sent = fake.requests[0]
    assert (sent.method, sent.path, sent.body) == (method, path, body)


def test_async_request_shapes_match_the_sync_client(fake: FakeApi) -> None:
    async def main() -> None:
        async with AsyncServiceClient("k", fake.url) as c:
            await c.start_crawl(U, max_depth=0, include_paths=["^/a"])
            await c.search("q", num_results=1)
            await c.start_batch_scrape(items=[{"id": "x", "url": U}])

    asyncio.run(main())
    assert [(r.method, r.path, r.body) for r in fake.requests] == [
        ("POST", "/v1/crawl", {"url": U, "maxDepth": 0, "includePaths": ["^/a"]}),
        ("POST", "/v1/search", {"query": "q", "num_results": 1}),
        ("POST", "/v1/batch/scrape", {"items": [{"id": "x", "url": U}]}),
    ]


def test_bad_arguments_fail_before_any_request(fake: FakeApi, fake_client: ServiceClient) -> None:
    with pytest.raises(TypeError):
        fake_client.start_batch_scrape("https://example.com/")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        fake_client.get_crawl_status("")
    with pytest.raises(ValueError):
        ServiceClient("k", "localhost:3002")
    with pytest.raises(ValueError):
        ServiceClient("k", fake.url, max_retries=-1)
    with pytest.raises(ValueError):
        fake_client.crawl_and_wait(U, timeout=-1)
    assert fake.requests == []


# -- polling helpers: paging and progress ---------------------------------------------------------

CID = "11111111-2222-3333-4444-555555555555"


def _crawl(status: str, pages: List[str], failed: List[str], next_skip: Any = None, **extra: Any) -> Dict[str, Any]:
    body: Dict[str, Any] = {
        "success": True, "id": CID, "status": status, "url": U, "total": 4, "completed": 3, "failed": 1,
        "creditsUsed": 3, "pages": [{"url": U + p, "markdown": p} for p in pages],
        "failedPages": [{"url": U + f, "error": "HTTP 404", "code": "TARGET_HTTP_ERROR"} for f in failed],
        **extra,
    }
    if next_skip is not None:
        body["next"] = f"/v1/crawl/{CID}?skip={next_skip}&limit=1"
    return body


def test_crawl_and_wait_follows_every_page_and_returns_a_failed_crawl(fake: FakeApi, fake_client: ServiceClient) -> None:
    fake.reply(202, {"success": True, "id": CID, "url": U})
    fake.reply(200, _crawl("processing", [], []))
    fake.reply(200, _crawl("failed", ["a"], ["x"], next_skip=1, stopReason="cancelled", error="Crawl cancelled"))
    fake.reply(200, _crawl("failed", ["b"], [], next_skip=2, stopReason="cancelled"))
    fake.reply(200, _crawl("failed", ["c"], [], stopReason="cancelled"))
    progress: List[Any] = []
    result = fake_client.crawl_and_wait(U, max_pages=4, poll_interval=0.01, on_progress=progress.append)
    assert result["status"] == "failed" and result["stopReason"] == "cancelled"
    assert result["error"] == "Crawl cancelled"
    assert [p["markdown"] for p in result["pages"]] == ["a", "b", "c"]
    assert [p["url"] for p in result["failedPages"]] == [U + "x"]
    assert "next" not in result
    assert progress == [
        {"status": "processing", "total": 4, "completed": 3, "failed": 1},
        {"status": "failed", "total": 4, "completed": 3, "failed": 1},
    ]
    assert [r.path for r in fake.requests] == [
        "/v1/crawl",
        f"/v1/crawl/{CID}",
        f"/v1/crawl/{CID}",
        f"/v1/crawl/{CID}?skip=1&limit=1",
        f"/v1/crawl/{CID}?skip=2&limit=1",
    ]


def test_batch_scrape_and_wait_follows_every_page(fake: FakeApi) -> None:
    bid = "99999999-2222-3333-4444-555555555555"

    def poll(status: str, ids: List[str], next_skip: Any = None) -> Dict[str, Any]:
        body: Dict[str, Any] = {
            "success": True, "id": bid, "status": status, "total": 3, "completed": 2, "failed": 1,
            "creditsUsed": 2, "results": [{"id": i, "url": U, "status": "done", "data": {"markdown": i}} for i in ids],
        }
        if next_skip is not None:
            body["next"] = f"/v1/batch/scrape/{bid}?skip={next_skip}&limit=2"
        return body

    fake.reply(202, {"success": True, "id": bid, "total": 3})
    fake.reply(200, poll("pending", []))
    fake.reply(200, poll("processing", ["1"]))
    fake.reply(200, poll("done", ["1", "2"], next_skip=2))
    fake.reply(200, poll("done", ["3"]))
    seen: List[str] = []

    async def main() -> Any:
        async def on_progress(p: Any) -> None:  # the async client awaits coroutine callbacks
            await asyncio.sleep(0)
            seen.append(p["status"])

        async with AsyncServiceClient("k", fake.url) as c:
            return await c.batch_scrape_and_wait([U, U, U], poll_interval=0.01, on_progress=on_progress)

    result = asyncio.run(main())
    assert [r["id"] for r in result["results"]] == ["1", "2", "3"]
    assert "next" not in result and result["status"] == "done"
    assert seen == ["pending", "processing", "done"]
    assert fake.requests[-1].path == f"/v1/batch/scrape/{bid}?skip=2&limit=2"


def test_polling_timeout_names_the_job(fake: FakeApi, fake_client: ServiceClient) -> None:
    fake.reply(202, {"success": True, "id": CID, "url": U})
    fake.default = Reply(200, _crawl("processing", [], []))
    started = time.monotonic()
    with pytest.raises(ServiceError) as info:
        fake_client.crawl_and_wait(U, poll_interval=0.05, timeout=0.3)
    err = info.value
    assert (err.status, err.code) == (0, "CLIENT_TIMEOUT")
    assert err.message == (
        f"crawl {CID} not finished after 0.3 s; it keeps running, poll it with get_crawl_status"
    )
    assert err.details is not None and err.details["id"] == CID
    assert 0.3 <= time.monotonic() - started < 5.0
    assert len(fake.requests) >= 3  # start + several polls
