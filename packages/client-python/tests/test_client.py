"""Every method of the sync client against the real service and the fixture web site."""

from __future__ import annotations

from typing import Any, List

import pytest

from wcs_client import ServiceClient, ServiceError

from conftest import TITLE, Live, wait_until


def test_env_fallback_and_explicit_arguments(live: Live) -> None:
    with ServiceClient() as from_env:
        assert from_env.base_url == live.base_url.rstrip("/")
    with ServiceClient(api_key=live.api_key, base_url=live.base_url + "/", timeout=30, max_retries=0) as c:
        assert c.base_url == live.base_url.rstrip("/")
        assert (c.timeout, c.max_retries) == (30.0, 0)
        assert c.get_webhook_secret()["success"] is True


def test_context_manager_closes_the_pool(live: Live) -> None:
    with ServiceClient() as c:
        assert c.is_closed is False
        c.get_webhook_secret()
    assert c.is_closed
    assert c._client.is_closed  # the underlying httpx.Client
    with pytest.raises(RuntimeError):
        c.get_webhook_secret()
    other = ServiceClient()
    other.close()
    assert other.is_closed


def test_scrape(client: ServiceClient, site: str) -> None:
    page = client.scrape(site + "/")
    assert page["success"] is True
    data = page["data"]
    assert data["markdown"].startswith(f"# {TITLE}")
    assert "Comparison of approaches" in data["markdown"]
    assert "Accept all" not in data["markdown"]  # cookie banner stripped (onlyMainContent default)
    assert data["metadata"]["title"] == TITLE
    assert data["metadata"]["statusCode"] == 200
    assert TITLE in data["html"] and TITLE in data["text"]


def test_scrape_options(client: ServiceClient, site: str) -> None:
    page = client.scrape(site + "/article/2", format="json", only_main_content=False, engine="fetch", timeout_ms=30_000)
    data = page["data"]
    assert isinstance(data.get("json"), dict)
    assert "article 2" in data["metadata"]["title"]
    assert "Fixture Journal" in data["markdown"]  # the site header is kept without onlyMainContent


def test_crawl_and_wait(client: ServiceClient, site: str) -> None:
    progress: List[Any] = []
    crawl = client.crawl_and_wait(
        site + "/",
        max_depth=1,
        max_pages=4,
        include_paths=["^/article/"],
        poll_interval=0.2,
        timeout=60,
        on_progress=progress.append,
    )
    assert crawl["status"] == "done", crawl
    assert crawl["stopReason"] in ("completed", "max_pages")
    assert "next" not in crawl
    pages = crawl["pages"]
    assert len(pages) == crawl["completed"] >= 2
    assert all(p["url"] and p["markdown"] for p in pages)
    by_url = {p["url"]: p for p in pages}
    home = by_url.get(site + "/") or by_url[site]
    assert TITLE in home["markdown"]
    assert all("/article/" in url for url in by_url if url.rstrip("/") != site)
    assert progress, "on_progress was never called"
    assert all(set(p) == {"status", "total", "completed", "failed"} for p in progress)
    assert progress[-1]["status"] == "done"

    # The same crawl read page by page.
    first = client.get_crawl_status(crawl["id"], skip=0, limit=1)
    assert len(first["pages"]) == 1 and first["next"].endswith("skip=1&limit=1")
    second = client.get_crawl_status(crawl["id"], skip=1, limit=1)
    assert second["pages"][0]["url"] != first["pages"][0]["url"]


def test_start_crawl_status_and_cancel(client: ServiceClient, site: str) -> None:
    started = client.start_crawl(site + "/", max_pages=30, delay_ms=3000)
    assert started["success"] is True and started["id"]
    assert started["url"].rstrip("/") == site
    crawl_id = started["id"]
    try:
        status = client.get_crawl_status(crawl_id)
        assert status["id"] == crawl_id
        assert status["status"] in ("pending", "processing")
    finally:
        cancelled = client.cancel_crawl(crawl_id)
    assert cancelled["status"] == "failed" and cancelled["stopReason"] == "cancelled"
    after = client.get_crawl_status(crawl_id)
    assert (after["status"], after["stopReason"]) == ("failed", "cancelled")
    assert client.cancel_crawl(crawl_id)["stopReason"] == "cancelled"  # idempotent


def test_map(client: ServiceClient, site: str) -> None:
    result = client.map(site, max_urls=5)
    assert result["success"] is True
    assert 1 <= len(result["links"]) <= 5
    assert result["total"] == len(result["links"])
    assert result["links"][0].rstrip("/") == site
    searched = client.map(site, search="article", max_urls=100)
    assert searched["links"] and all("article" in link for link in searched["links"])


def test_search_after_scraping(client: ServiceClient, site: str) -> None:
    url = site + "/article/3"  # "Tidal Energy" — its text mentions the estuary
    scraped = client.scrape(url)
    assert "estuary" in scraped["data"]["markdown"]

    def hit() -> Any:
        found = client.search("estuary", num_results=5)
        return next((r for r in found["data"] if r["url"] == url), None) and found

    found = wait_until(hit)
    assert found["success"] is True and found["creditsUsed"] >= 2
    result = next(r for r in found["data"] if r["url"] == url)
    assert result["markdown"] and "estuary" in result["markdown"]
    assert "article 3" in result["title"]

    hits_only = client.search("estuary", num_results=1, scrape=False)
    assert len(hits_only["data"]) == 1 and "markdown" not in hits_only["data"][0]


def test_extract(client: ServiceClient, site: str) -> None:
    result = client.extract(site + "/", schema={"title": "string", "author": "string"})
    assert result == {"success": True, "data": {"title": TITLE, "author": None}}
    prompted = client.extract(site + "/", prompt="What is the title of the article?")
    assert prompted["data"]["title"] == TITLE


def test_monitors(client: ServiceClient, site: str) -> None:
    created = client.create_monitor(site + "/article/5", interval="hourly", webhook_url=site + "/hook")
    monitor = created["data"]
    assert monitor["url"] == site + "/article/5"
    assert (monitor["interval"], monitor["status"]) == ("hourly", "active")
    assert monitor["webhookUrl"] == site + "/hook"
    mid = monitor["id"]
    try:
        listed = client.list_monitors()
        assert mid in [m["id"] for m in listed["data"]]
        assert listed["total"] >= 1
        one = client.list_monitors(skip=0, limit=1)
        assert len(one["data"]) == 1

        # The first check runs at once and sets the baseline.
        detail = wait_until(lambda: (lambda d: d if d["data"]["checkCount"] >= 1 else None)(client.get_monitor(mid)))
        assert detail["data"]["id"] == mid
        assert detail["data"]["checks"][0]["changed"] is False
        assert len(detail["data"]["checks"][0]["hash"]) == 64
    finally:
        deleted = client.delete_monitor(mid)
    assert deleted["data"]["status"] == "cancelled"
    assert deleted["data"]["nextCheckAt"] is None
    assert client.get_monitor(mid)["data"]["status"] == "cancelled"


def test_batch_scrape_with_urls(client: ServiceClient, site: str) -> None:
    urls = [site + "/", site + "/article/1"]
    started = client.start_batch_scrape(urls)
    assert started["success"] is True and started["total"] == 2

    status = wait_until(
        lambda: (lambda s: s if s["status"] == "done" else None)(client.get_batch_scrape_status(started["id"]))
    )
    assert (status["completed"], status["failed"], status["creditsUsed"]) == (2, 0, 2)
    assert [r["url"] for r in status["results"]] == urls
    assert all("id" not in r for r in status["results"])
    assert TITLE in status["results"][0]["data"]["markdown"]
    assert "article 1" in status["results"][1]["data"]["metadata"]["title"]
    page = client.get_batch_scrape_status(started["id"], skip=1, limit=1)
    assert [r["url"] for r in page["results"]] == urls[1:]


def test_batch_scrape_with_items(client: ServiceClient, site: str) -> None:
    started = client.start_batch_scrape(items=[{"id": "home", "url": site + "/"}, {"id": "a7", "url": site + "/article/7"}])
    status = wait_until(
        lambda: (lambda s: s if s["status"] == "done" else None)(client.get_batch_scrape_status(started["id"]))
    )
    assert [r["id"] for r in status["results"]] == ["home", "a7"]


def test_batch_scrape_and_wait_with_a_failing_item(client: ServiceClient, site: str) -> None:
    progress: List[Any] = []
    batch = client.batch_scrape_and_wait(
        items=[{"id": "home", "url": site + "/"}, {"id": "missing", "url": site + "/404"}],
        poll_interval=0.2,
        timeout=60,
        on_progress=progress.append,
    )
    assert batch["status"] == "done"
    assert (batch["total"], batch["completed"], batch["failed"], batch["creditsUsed"]) == (2, 1, 1, 1)
    results = {r["id"]: r for r in batch["results"]}
    assert results["home"]["status"] == "done"
    assert TITLE in results["home"]["data"]["markdown"]
    assert results["missing"]["status"] == "failed"
    assert "404" in results["missing"]["error"]
    assert results["missing"]["code"] == "TARGET_HTTP_ERROR"
    assert progress and progress[-1] == {"status": "done", "total": 2, "completed": 1, "failed": 1}


def test_get_webhook_secret(client: ServiceClient) -> None:
    secret = client.get_webhook_secret()["data"]["secret"]
    assert isinstance(secret, str) and len(secret) >= 16
    assert client.get_webhook_secret()["data"]["secret"] == secret  # stable


def test_error_from_a_target(client: ServiceClient, site: str) -> None:
    with pytest.raises(ServiceError) as info:
        client.scrape(site + "/404")
    err = info.value
    assert (err.status, err.code) == (502, "TARGET_HTTP_ERROR")
    assert "404" in err.message
    assert err.details is not None and err.details.get("statusCode") == 404
