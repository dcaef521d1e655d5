"""Errors as the real service answers them, and the client's own (status 0) errors."""

from __future__ import annotations

import asyncio

import pytest

from wcs_client import AsyncServiceClient, ServiceClient, ServiceError

from conftest import Live, closed_port

UNKNOWN_ID = "00000000-0000-4000-8000-000000000000"


def test_bad_api_key_is_401(live: Live, site: str) -> None:
    with ServiceClient(api_key="wcs_not_a_real_key", base_url=live.base_url) as c:
        with pytest.raises(ServiceError) as info:
            c.scrape(site + "/")
    err = info.value
    assert (err.status, err.code) == (401, "UNAUTHORIZED")
    assert err.message == "Invalid API key" == str(err)


def test_validation_error_is_400(client: ServiceClient, site: str) -> None:
    with pytest.raises(ServiceError) as info:
        client.create_monitor(site + "/", interval="monthly")  # type: ignore[arg-type]
    err = info.value
    assert (err.status, err.code) == (400, "VALIDATION_FAILED")
    assert "interval" in err.message


def test_invalid_crawl_pattern_names_the_pattern(client: ServiceClient, site: str) -> None:
    with pytest.raises(ServiceError) as info:
        client.start_crawl(site + "/", include_paths=["^/ok/", "*.pdf"])
    assert info.value.status == 400
    assert "includePaths.1" in info.value.message


@pytest.mark.parametrize("method", ["get_crawl_status", "cancel_crawl", "get_batch_scrape_status", "cancel_batch_scrape", "get_monitor", "delete_monitor"])
def test_unknown_id_is_404(client: ServiceClient, method: str) -> None:
    with pytest.raises(ServiceError) as info:
        getattr(client, method)(UNKNOWN_ID)
    err = info.value
    assert (err.status, err.code) == (404, "NOT_FOUND")
    assert "not found" in err.message.lower()


def test_missing_api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SERVICE_API_KEY", raising=False)
    for make in (ServiceClient, AsyncServiceClient):
        with pytest.raises(ServiceError) as info:
            make()
        err = info.value
        assert (err.status, err.code) == (0, "MISSING_API_KEY")
        assert "SERVICE_API_KEY" in err.message


def test_default_base_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SERVICE_BASE_URL", raising=False)
    with ServiceClient(api_key="k") as c:
        assert c.base_url == "http://localhost:3002"


def test_crawl_polling_timeout(client: ServiceClient, site: str) -> None:
    # 3 pages at least 5 s apart cannot finish within 0.05 s.
    with pytest.raises(ServiceError) as info:
        client.crawl_and_wait(site + "/", max_pages=3, delay_ms=5000, poll_interval=0.01, timeout=0.05)
    err = info.value
    assert (err.status, err.code) == (0, "CLIENT_TIMEOUT")
    assert err.details is not None
    crawl_id = err.details["id"]
    assert f"crawl {crawl_id} not finished after 0.05 s" in err.message
    # The crawl kept running: it can be polled and cancelled.
    assert client.get_crawl_status(crawl_id)["status"] in ("pending", "processing")
    assert client.cancel_crawl(crawl_id)["stopReason"] == "cancelled"


def test_network_error(live: Live) -> None:
    with ServiceClient(api_key=live.api_key, base_url=f"http://127.0.0.1:{closed_port()}") as c:
        with pytest.raises(ServiceError) as info:
            c.get_webhook_secret()
    assert (info.value.status, info.value.code) == (0, "NETWORK_ERROR")


def test_async_network_error(live: Live) -> None:
    async def main() -> None:
        async with AsyncServiceClient(api_key=live.api_key, base_url=f"http://127.0.0.1:{closed_port()}") as c:
            await c.get_webhook_secret()

    with pytest.raises(ServiceError) as info:
        asyncio.run(main())
    assert (info.value.status, info.value.code) == (0, "NETWORK_ERROR")
