"""Against a local fake of the API: the exact request each method sends (sync and async), argument
checks, and the polling helpers' paging, progress and timeout."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable, Dict, List

import pytest

from wcs_client import AsyncServiceClient, ServiceClient, ServiceError, __version__

from conftest import FakeApi, Reply


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
        lambda c: c.map(
            U, max_urls=10, search="docs", include_subdomains=True, ignore_sitemap=True, timeout_ms=5000,
            link_metadata=True,
        ),
        "POST",
        "/v1/map",
        {
            "url": U, "max_urls": 10, "search": "docs", "includeSubdomains": True, "ignoreSitemap": True,
            "linkMetadata": True, "timeout": 5000,
        },
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
    ("cancel_batch_scrape", lambda c: c.cancel_batch_scrape("b/1"), "DELETE", "/v1/batch/scrape/b%2F1", None),
    ("get_webhook_secret", lambda c: c.get_webhook_secret(), "GET", "/v1/webhook/secret", None),
    ("pause_monitor", lambda c: c.pause_monitor("m/1"), "POST", "/v1/monitor/m%2F1/pause", None),
    ("resume_monitor", lambda c: c.resume_monitor("m1"), "POST", "/v1/monitor/m1/resume", None),
    ("account", lambda c: c.account(), "GET", "/v1/account", None),
    ("usage", lambda c: c.usage(), "GET", "/v1/usage", None),
    ("usage days", lambda c: c.usage(days=7), "GET", "/v1/usage?days=7", None),
    ("ledger", lambda c: c.ledger(), "GET", "/v1/ledger", None),
    (
        "ledger all",
        lambda c: c.ledger(limit=2, cursor="41", reason=["scrape", "scrape_refund"]),
        "GET",
        "/v1/ledger?limit=2&cursor=41&reason=scrape%2Cscrape_refund",
        None,
    ),
    ("ledger reason string", lambda c: c.ledger(reason="grant"), "GET", "/v1/ledger?reason=grant", None),
    ("list_keys", lambda c: c.list_keys(), "GET", "/v1/keys", None),
    ("create_key", lambda c: c.create_key(), "POST", "/v1/keys", {}),
    ("create_key name", lambda c: c.create_key(name="ci"), "POST", "/v1/keys", {"name": "ci"}),
    ("revoke_key", lambda c: c.revoke_key("k1"), "DELETE", "/v1/keys/k1", None),
    ("list_batches", lambda c: c.list_batches(skip=20, limit=10), "GET", "/v1/batch/scrape?skip=20&limit=10", None),
    ("batch_results", lambda c: c.batch_results("b1", limit=5), "GET", "/v1/batch/scrape/b1/results?limit=5", None),
    ("batch_result", lambda c: c.batch_result("b1", "i/1"), "GET", "/v1/batch/scrape/b1/results/i%2F1", None),
    ("list_crawls", lambda c: c.list_crawls(), "GET", "/v1/crawl", None),
    ("crawl_results", lambda c: c.crawl_results("c1", skip=1), "GET", "/v1/crawl/c1/results?skip=1", None),
    ("crawl_result", lambda c: c.crawl_result("c1", "p1"), "GET", "/v1/crawl/c1/results/p1", None),
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
            await c.cancel_batch_scrape("b/1")

    asyncio.run(main())
    assert [(r.method, r.path, r.body) for r in fake.requests] == [
        ("POST", "/v1/crawl", {"url": U, "maxDepth": 0, "includePaths": ["^/a"]}),
        ("POST", "/v1/search", {"query": "q", "num_results": 1}),
        ("POST", "/v1/batch/scrape", {"items": [{"id": "x", "url": U}]}),
        ("DELETE", "/v1/batch/scrape/b%2F1", None),
    ]


def test_ledger_csv_returns_the_text_and_asks_for_csv(fake: FakeApi, fake_client: ServiceClient) -> None:
    csv = "id,time,reason,amount,reference,balance_after\n7,2026-11-24T00:00:00.000Z,grant,100,,100\n"
    fake.reply(200, raw=csv.encode(), headers={"Content-Type": "text/csv; charset=utf-8"})
    assert fake_client.ledger_csv(reason=("grant",)) == csv
    sent = fake.requests[0]
    assert (sent.method, sent.path) == ("GET", "/v1/ledger.csv?reason=grant")
    assert sent.headers["accept"].startswith("text/csv")
    fake.error(400, "VALIDATION_ERROR", "reason: unknown reason nope")
    with pytest.raises(ServiceError) as info:
        fake_client.ledger_csv(reason="nope")
    assert (info.value.status, info.value.code) == (400, "VALIDATION_ERROR")
    fake_client.account()
    assert fake.requests[-1].headers["accept"] == "application/json"  # only the CSV call differs


def test_async_account_methods_send_the_same_requests(fake: FakeApi) -> None:
    for _ in range(4):
        fake.reply()
    fake.reply(200, raw=b"id,time\n")

    async def main() -> str:
        async with AsyncServiceClient("k", fake.url) as c:
            await c.ledger(limit=1, reason=["grant", "scrape"])
            await c.revoke_key("k1")
            await c.pause_monitor("m1")
            await c.crawl_result("c1", "p1")
            return await c.ledger_csv()

    assert asyncio.run(main()) == "id,time\n"
    assert [(r.method, r.path) for r in fake.requests] == [
        ("GET", "/v1/ledger?limit=1&reason=grant%2Cscrape"),
        ("DELETE", "/v1/keys/k1"),
        ("POST", "/v1/monitor/m1/pause"),
        ("GET", "/v1/crawl/c1/results/p1"),
        ("GET", "/v1/ledger.csv"),
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
    with pytest.raises(ValueError):
        fake_client.batch_result("b1", "")
    with pytest.raises(TypeError):
        fake_client.ledger(reason=b"scrape")  # type: ignore[arg-type]
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
