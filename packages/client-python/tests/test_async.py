"""The async client against the real service (each test drives its own event loop)."""

from __future__ import annotations

import asyncio
from typing import Any, List

import pytest

from wcs_client import AsyncServiceClient, ServiceError

from conftest import TITLE, Live

UNKNOWN_ID = "00000000-0000-4000-8000-000000000000"


def test_async_scrape_and_close(site: str) -> None:
    async def main() -> Any:
        async with AsyncServiceClient() as c:
            pages = await asyncio.gather(c.scrape(site + "/"), c.scrape(site + "/article/4"))
            assert not c.is_closed
        assert c.is_closed and c._client.is_closed
        return pages

    home, article = asyncio.run(main())
    assert TITLE in home["data"]["markdown"]
    assert "article 4" in article["data"]["metadata"]["title"]


def test_async_crawl_and_wait(site: str) -> None:
    seen: List[Any] = []

    async def on_progress(progress: Any) -> None:
        seen.append(progress)

    async def main() -> Any:
        async with AsyncServiceClient() as c:
            return await c.crawl_and_wait(site + "/", max_depth=1, max_pages=3, poll_interval=0.2, timeout=60, on_progress=on_progress)

    crawl = asyncio.run(main())
    assert crawl["status"] == "done"
    assert len(crawl["pages"]) == crawl["completed"] >= 1
    assert all(p["url"] and p["markdown"] for p in crawl["pages"])
    assert seen and seen[-1]["status"] == "done"


def test_async_batch_scrape_and_wait(site: str) -> None:
    async def main() -> Any:
        async with AsyncServiceClient() as c:
            return await c.batch_scrape_and_wait(
                items=[{"id": "a", "url": site + "/article/8"}, {"id": "gone", "url": site + "/404"}],
                poll_interval=0.2,
                timeout=60,
            )

    batch = asyncio.run(main())
    assert batch["status"] == "done"
    results = {r["id"]: r for r in batch["results"]}
    assert results["a"]["status"] == "done" and "article 8" in results["a"]["data"]["metadata"]["title"]
    assert results["gone"]["status"] == "failed" and results["gone"]["error"]


def test_async_other_methods(site: str) -> None:
    async def main() -> None:
        async with AsyncServiceClient() as c:
            mapped = await c.map(site, max_urls=3)
            assert mapped["total"] == len(mapped["links"]) >= 1
            extracted = await c.extract(site + "/", schema={"title": "string"})
            assert extracted["data"] == {"title": TITLE}
            monitor = (await c.create_monitor(site + "/", interval="weekly"))["data"]
            assert (await c.get_monitor(monitor["id"]))["data"]["interval"] == "weekly"
            assert monitor["id"] in [m["id"] for m in (await c.list_monitors(limit=500))["data"]]
            assert (await c.delete_monitor(monitor["id"]))["data"]["status"] == "cancelled"
            started = await c.start_crawl(site + "/", max_pages=20, delay_ms=3000)
            assert (await c.get_crawl_status(started["id"]))["id"] == started["id"]
            assert (await c.cancel_crawl(started["id"]))["stopReason"] == "cancelled"
            batch = await c.start_batch_scrape([site + "/article/9"])
            assert (await c.get_batch_scrape_status(batch["id"]))["total"] == 1
            stopped = await c.cancel_batch_scrape(batch["id"])
            assert (stopped["id"], stopped["status"], stopped["total"]) == (batch["id"], "done", 1)
            assert stopped["completed"] + stopped["failed"] == 1
            assert (await c.get_webhook_secret())["data"]["secret"]
            found = await c.search("Extraction", num_results=1, scrape=False)
            assert found["success"] is True

    asyncio.run(main())


def test_async_errors(live: Live) -> None:
    async def main() -> None:
        async with AsyncServiceClient() as c:
            await c.get_crawl_status(UNKNOWN_ID)

    with pytest.raises(ServiceError) as info:
        asyncio.run(main())
    assert (info.value.status, info.value.code, info.value.message) == (404, "NOT_FOUND", "Crawl not found")

    async def bad_key() -> None:
        async with AsyncServiceClient(api_key="wcs_bad", base_url=live.base_url) as c:
            await c.scrape("https://example.com/")

    with pytest.raises(ServiceError) as info:
        asyncio.run(bad_key())
    assert info.value.status == 401


def test_async_account_methods(live: Live, site: str) -> None:
    async def main() -> None:
        async with AsyncServiceClient() as c:
            account, usage, page = await asyncio.gather(c.account(), c.usage(days=3), c.ledger(limit=2))
            assert account["data"]["plan"]["id"] == "hobby"
            assert len(usage["data"]["days"]) == 3
            assert len(page["data"]) == 2
            older = await c.ledger(limit=1, cursor=page["data"][-1]["id"])
            assert int(older["data"][0]["id"]) < int(page["data"][-1]["id"])
            assert (await c.ledger(reason=["grant"]))["total"] == 1
            csv_text = await c.ledger_csv(reason="grant")
            assert csv_text.splitlines()[0] == "id,time,reason,amount,reference,balance_after"
            assert len(csv_text.splitlines()) == 2

            created = (await c.create_key(name="async"))["data"]
            assert created["id"] in [k["id"] for k in (await c.list_keys())["data"]]
            assert (await c.revoke_key(created["id"]))["data"]["id"] == created["id"]
            async with AsyncServiceClient(api_key=created["key"], base_url=live.base_url, max_retries=0) as revoked:
                try:
                    await revoked.account()
                except ServiceError as err:
                    assert err.status == 401
                else:
                    pytest.fail("a revoked key still works")

            mid = (await c.create_monitor(site + "/article/3", interval="weekly"))["data"]["id"]
            assert (await c.pause_monitor(mid))["data"]["status"] == "paused"
            assert (await c.resume_monitor(mid))["data"]["status"] == "active"
            await c.delete_monitor(mid)

            batch = await c.batch_scrape_and_wait([site + "/article/4"], poll_interval=0.2, timeout=60)
            assert batch["id"] in [b["id"] for b in (await c.list_batches(limit=100))["data"]]
            row = (await c.batch_results(batch["id"], skip=0, limit=10))["data"][0]
            assert (row["position"], row["status"]) == (0, "done")
            item = (await c.batch_result(batch["id"], row["itemId"]))["data"]
            assert item["document"] is not None and "article 4" in str(item["document"]["markdown"]).lower()

            crawl = await c.crawl_and_wait(site + "/", max_depth=0, max_pages=1, poll_interval=0.2, timeout=60)
            assert (await c.list_crawls(skip=0, limit=1))["data"][0]["id"] == crawl["id"]
            first = (await c.crawl_results(crawl["id"]))["data"][0]
            assert first["depth"] == 0 and first["status"] == "done"
            detail = (await c.crawl_result(crawl["id"], first["pageId"]))["data"]
            assert detail["document"] is not None and TITLE in str(detail["document"]["markdown"])

    asyncio.run(main())
