"""Every method of the sync client against the real service and the fixture web site."""

from __future__ import annotations

from typing import Any, Callable, List, Tuple, TypeVar

import pytest

from wcs_client import LedgerEntry, ServiceClient, ServiceError

from conftest import TITLE, Live, wait_until

T = TypeVar("T")


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


PAGE_HTML = b"<html><head><title>Notes</title></head><body><nav>Menu</nav><main><h1>Kept notes</h1><p>Written offline, sent as a file. <a href='https://example.com/more'>more</a></p></main></body></html>"


def test_parse(client: ServiceClient) -> None:
    page = client.parse(PAGE_HTML, filename="notes.html", formats=["markdown", "links"], exclude_tags=["nav"])
    data = page["data"]
    assert sorted(data.keys()) == ["links", "markdown", "metadata"]
    assert "# Kept notes" in data["markdown"] and "Menu" not in data["markdown"]
    assert data["links"] == ["https://example.com/more"]
    assert data["metadata"]["sourceURL"] == "file:///notes.html"
    assert data["metadata"].get("contentType") == "text/html"
    with pytest.raises(ServiceError) as err:
        client.parse(b"\x89PNG\r\n\x1a\n not a document")
    assert (err.value.status, err.value.code) == (415, "UNSUPPORTED_CONTENT_TYPE")


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
    detailed = client.map(site, max_urls=5, link_metadata=True)
    assert [p["url"] for p in detailed["pages"]] == detailed["links"]
    assert detailed["pages"][0]["title"]  # the start page was fetched: its title is known


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
    assert (result["success"], result["data"]) == (True, {"title": TITLE, "author": None})
    # What was read comes with it: one page, not cut.
    assert result["truncated"] is False
    assert result["usage"]["chunks"] == 1 and result["usage"]["modelCalls"] >= 1
    prompted = client.extract(site + "/", prompt="What is the title of the article?")
    assert prompted["data"]["title"] == TITLE


def test_monitors(client: ServiceClient, site: str) -> None:
    created = client.create_monitor(site + "/article/5", interval="hourly", webhook_url=site + "/hook")
    monitor = created["data"]
    assert monitor["url"] == site + "/article/5"
    assert (monitor["interval"], monitor["status"]) == ("hourly", "active")
    assert monitor["webhookUrl"] == site + "/hook"
    mid = monitor["id"]
    ruled = client.create_monitor(
        site + "/article/6", interval="weekly", ignore_text=["Last updated", "/^\\d+ views$/i"], threshold=0.2, goal="prices"
    )["data"]
    assert (ruled["ignoreText"], ruled["threshold"], ruled["goal"]) == (["Last updated", "/^\\d+ views$/i"], 0.2, "prices")
    client.delete_monitor(ruled["id"])
    timed = client.create_monitor(
        site + "/article/7", cron="0 9 * * 1-5", timezone="Europe/Paris", webhook_url=site + "/hook", webhook_format="discord"
    )["data"]
    assert (timed["interval"], timed["cron"], timed["timezone"], timed["webhookFormat"]) == (
        "cron",
        "0 9 * * 1-5",
        "Europe/Paris",
        "discord",
    )
    assert client.get_monitor(timed["id"])["data"]["cron"] == "0 9 * * 1-5"
    moved = client.update_monitor(timed["id"], interval="weekly", webhook_url=None, threshold=0.5)["data"]
    assert (moved["interval"], moved["threshold"]) == ("weekly", 0.5)
    assert "cron" not in moved and "webhookUrl" not in moved and moved["webhookFormat"] == "discord"
    client.delete_monitor(timed["id"])
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


def test_cancel_batch_scrape_refunds_the_unfinished_items(client: ServiceClient, site: str) -> None:
    # Each page answers after 5 s: cancelled at once, the items are still queued or running.
    urls = [f"{site}/article/{n}?delay=5000" for n in range(6)]
    started = client.start_batch_scrape(urls)
    res = client.cancel_batch_scrape(started["id"])
    assert (res["success"], res["id"], res["status"], res["total"]) == (True, started["id"], "done", 6)
    assert 1 <= res["cancelled"] <= res["failed"]
    assert res["completed"] + res["failed"] == 6
    assert res["creditsUsed"] == res["completed"]  # only finished items cost a credit

    rows = client.batch_results(started["id"])["data"]
    cancelled = [r for r in rows if r["code"] == "CANCELLED"]
    assert len(cancelled) == res["cancelled"] and all(r["status"] == "failed" for r in cancelled)
    # Every failed item (the cancelled ones included) got its credit back, once.
    item_ids = {r["itemId"] for r in rows if r["status"] == "failed"}
    refunds = [e for e in client.ledger(reason="batch_refund", limit=500)["data"] if e["reference"] in item_ids]
    assert sorted(e["reference"] for e in refunds) == sorted(item_ids)
    assert all(e["amount"] == 1 for e in refunds)

    again = client.cancel_batch_scrape(started["id"])  # idempotent: nothing left to stop
    assert (again["cancelled"], again["creditsUsed"]) == (0, res["creditsUsed"])


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


# -- account endpoints ---------------------------------------------------------------------------

CSV_HEADER = "id,time,reason,amount,reference,balance_after"
UNKNOWN_ID = "00000000-0000-4000-8000-000000000000"


def _settled(read: Callable[[], T], client: ServiceClient, attempts: int = 5) -> Tuple[T, LedgerEntry]:
    """``read()`` taken between two reads of the newest ledger row that agree: nothing was charged
    or refunded meanwhile (other tests' monitors and jobs run in the background on this account)."""
    for _ in range(attempts):
        before = client.ledger(limit=1)["data"][0]
        value = read()
        if client.ledger(limit=1)["data"][0]["id"] == before["id"]:
            return value, before
    pytest.fail(f"the ledger kept moving during {attempts} reads")


def test_account_balance_is_the_ledger_after_a_charge(client: ServiceClient, site: str) -> None:
    scrapes_before = client.ledger(reason="scrape", limit=1)["total"]
    client.scrape(site + "/article/6")
    charged = client.ledger(reason="scrape", limit=1)
    assert charged["total"] == scrapes_before + 1
    assert (charged["data"][0]["reason"], charged["data"][0]["amount"]) == ("scrape", -1)

    account, newest = _settled(lambda: client.account()["data"], client)
    assert account["balance"] == newest["balanceAfter"]
    assert account["plan"]["id"] == "hobby"
    assert 0 <= account["rateLimit"]["remaining"] <= account["rateLimit"]["limit"]

    usage, _ = _settled(lambda: (client.account()["data"], client.usage(days=30)["data"]), client)
    assert usage[0]["usedLast30Days"] == usage[1]["totals"]["total"]
    days = usage[1]["days"]
    assert len(days) == 30 and days[-1]["date"] == charged["data"][0]["createdAt"][:10]
    assert days[-1]["scrape"] >= 1
    assert len(client.usage(days=2)["data"]["days"]) == 2


def test_ledger_pages_with_the_cursor_and_filters(client: ServiceClient) -> None:
    first = client.ledger(limit=2)
    assert len(first["data"]) == 2 and first["total"] >= 3
    cursor = first["data"][-1]["id"]
    assert "cursor=" + cursor in first["next"]
    second = client.ledger(limit=2, cursor=cursor)
    ids = [int(e["id"]) for e in first["data"] + second["data"]]
    assert ids == sorted(ids, reverse=True) and len(set(ids)) == len(ids)  # newest first, no repeat
    grants = client.ledger(reason="grant")
    assert grants["total"] == 1 and grants["data"][0]["amount"] > 0
    scrapes = client.ledger(reason="scrape", limit=1)
    both = client.ledger(reason=["grant", "scrape"], limit=1)
    assert both["total"] == grants["total"] + scrapes["total"]  # scrapes only happen in the foreground
    assert both["data"][0]["id"] == scrapes["data"][0]["id"]
    with pytest.raises(ServiceError) as info:
        client.ledger(reason=["scrape", "nope"])
    assert info.value.status == 400 and "nope" in info.value.message


def test_ledger_csv_is_the_ledger_as_text(client: ServiceClient) -> None:
    lines = client.ledger_csv(reason="grant").splitlines()
    grant = client.ledger(reason="grant")["data"][0]
    assert lines[0] == CSV_HEADER
    assert len(lines) == 2
    assert lines[1].startswith(f"{grant['id']},{grant['createdAt']},grant,{grant['amount']},")
    everything = client.ledger_csv()
    assert everything.startswith(CSV_HEADER + "\r\n")  # RFC 4180 line ends
    assert len(everything.splitlines()) >= 3
    with pytest.raises(ServiceError) as info:
        client.ledger_csv(reason="nope")
    assert info.value.status == 400


def test_key_credit_limits(client: ServiceClient, live: Live) -> None:
    created = client.create_key(name="capped", daily_credit_limit=1)["data"]
    assert created["dailyCreditLimit"] == 1 and created["monthlyCreditLimit"] is None
    with ServiceClient(api_key=created["key"], base_url=live.base_url, max_retries=0) as capped:
        assert capped.last_credits is None
        capped.scrape(live.site)
        balance = client.account()["data"]["balance"]
        assert capped.last_credits == {"used": 1, "remaining": balance}
        with pytest.raises(ServiceError) as info:
            capped.scrape(live.site)
        assert info.value.status == 402 and info.value.code == "KEY_BUDGET_EXCEEDED"
        assert info.value.details is not None and info.value.details["limit"] == 1
        with pytest.raises(ServiceError) as info:
            capped.update_key(created["id"], daily_credit_limit=None)
        assert info.value.status == 403
    updated = client.update_key(created["id"], monthly_credit_limit=10)["data"]
    assert updated["dailyCreditLimit"] == 1 and updated["monthlyCreditLimit"] == 10
    assert updated["spentToday"] == 1
    lifted = client.update_key(created["id"], daily_credit_limit=None)["data"]
    assert lifted["dailyCreditLimit"] is None and lifted["name"] == "capped"
    client.revoke_key(created["id"])


def test_keys_create_list_revoke(client: ServiceClient, live: Live) -> None:
    created = client.create_key(name="pytest")["data"]
    assert created["name"] == "pytest" and created["key"].startswith(created["prefix"])
    with ServiceClient(api_key=created["key"], base_url=live.base_url, max_retries=0) as second:
        seen = {k["id"]: k for k in second.list_keys()["data"]}
        assert seen[created["id"]]["current"] is True
        assert [k["current"] for k in seen.values()].count(True) == 1
        revoked = client.revoke_key(created["id"])["data"]
        assert revoked["id"] == created["id"]
        with pytest.raises(ServiceError) as info:
            second.account()
        assert info.value.status == 401
    listed = {k["id"]: k for k in client.list_keys()["data"]}
    assert listed[created["id"]]["revokedAt"] == revoked["revokedAt"]
    assert client.revoke_key(created["id"])["data"]["id"] == created["id"]  # idempotent
    with pytest.raises(ServiceError) as info:
        client.revoke_key(UNKNOWN_ID)
    assert info.value.status == 404


def test_pause_and_resume_a_monitor(client: ServiceClient, site: str) -> None:
    mid = client.create_monitor(site + "/article/2", interval="weekly")["data"]["id"]
    paused = client.pause_monitor(mid)["data"]
    assert (paused["id"], paused["status"], paused["pausedBy"]) == (mid, "paused", "user")
    assert client.get_monitor(mid)["data"]["status"] == "paused"
    resumed = client.resume_monitor(mid)["data"]
    assert (resumed["status"], resumed["pausedBy"]) == ("active", None)
    client.delete_monitor(mid)
    with pytest.raises(ServiceError) as info:
        client.pause_monitor(mid)
    assert (info.value.status, info.value.code) == (409, "CONFLICT")


def test_batch_listing_and_results(client: ServiceClient, site: str) -> None:
    batch = client.batch_scrape_and_wait([site + "/", site + "/404"], poll_interval=0.2, timeout=60)
    listed = client.list_batches(limit=100)
    mine = next(b for b in listed["data"] if b["id"] == batch["id"])
    assert (mine["status"], mine["total"], mine["completed"], mine["failed"]) == ("done", 2, 1, 1)
    assert mine["finishedAt"] is not None
    rows = client.batch_results(batch["id"])
    assert rows["total"] == 2
    assert [(r["position"], r["url"], r["status"]) for r in rows["data"]] == [
        (0, site + "/", "done"),
        (1, site + "/404", "failed"),
    ]
    assert [r["position"] for r in client.batch_results(batch["id"], skip=1, limit=1)["data"]] == [1]
    done = client.batch_result(batch["id"], rows["data"][0]["itemId"])["data"]
    assert done["document"] is not None and TITLE in str(done["document"]["markdown"])
    failed = client.batch_result(batch["id"], rows["data"][1]["itemId"])["data"]
    assert failed["document"] is None and "404" in (failed["error"] or "")


def test_crawl_listing_and_results(client: ServiceClient, site: str) -> None:
    crawl = client.crawl_and_wait(site + "/", max_depth=1, max_pages=3, poll_interval=0.2, timeout=60)
    assert client.list_crawls(limit=1)["data"][0]["id"] == crawl["id"]  # newest first
    mine = next(c for c in client.list_crawls(limit=100)["data"] if c["id"] == crawl["id"])
    assert (mine["status"], mine["completed"]) == ("done", crawl["completed"])
    pages = client.crawl_results(crawl["id"], limit=500)["data"]
    assert [p["status"] for p in pages].count("done") == crawl["completed"]
    root = pages[0]
    assert (root["depth"], root["status"], root["statusCode"], root["title"]) == (0, "done", 200, TITLE)
    detail = client.crawl_result(crawl["id"], root["pageId"])["data"]
    assert detail["pageId"] == root["pageId"]
    assert detail["document"] is not None and TITLE in str(detail["document"]["markdown"])
    with pytest.raises(ServiceError) as info:
        client.crawl_result(crawl["id"], UNKNOWN_ID)
    assert info.value.status == 404
