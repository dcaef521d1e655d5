"""Page options (README "Page options"): the exact bodies both clients send (against the local fake
of the API), ``screenshot()``'s origin rule, and the live service: formats and a header echoed by a
local page, a screenshot fetched as PNG bytes (the client stack runs Chromium for these)."""

from __future__ import annotations

import asyncio
import html
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterator, List

import pytest

from wcs_client import AsyncServiceClient, ServiceClient, ServiceError

from conftest import FakeApi, Live

U = "https://example.com/"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
PROBE = "x-client-probe"

PAGE_KW: Any = dict(
    formats=["links", "rawHtml"],
    headers={PROBE: "py"},
    headers_scope="all",
    actions=[{"type": "click", "selector": "#go"}, {"type": "wait", "milliseconds": 100}],
    mobile=True,
    location={"country": "DE", "languages": ["de-DE"]},
    include_tags=("article",),
    exclude_tags=[".ad"],
    proxy="none",
    max_age=60_000,
    store_in_cache=False,
)
PAGE_BODY = {
    "formats": ["links", "rawHtml"],
    "headers": {PROBE: "py"},
    "headersScope": "all",
    "actions": [{"type": "click", "selector": "#go"}, {"type": "wait", "milliseconds": 100}],
    "mobile": True,
    "location": {"country": "DE", "languages": ["de-DE"]},
    "includeTags": ["article"],
    "excludeTags": [".ad"],
    "proxy": "none",
    "maxAge": 60_000,
    "storeInCache": False,
}
READ_KW: Any = {k: v for k, v in PAGE_KW.items() if k not in ("formats", "max_age", "store_in_cache")}
READ_BODY = {k: v for k, v in PAGE_BODY.items() if k not in ("formats", "maxAge", "storeInCache")}


# -- what is sent (offline) --------------------------------------------------------------------


def test_scrape_and_batch_send_every_page_option(fake: FakeApi, fake_client: ServiceClient) -> None:
    fake_client.scrape(U, only_main_content=False, wait_for=200, **PAGE_KW)
    fake_client.start_batch_scrape([U], **PAGE_KW)
    assert fake.requests[0].body == {"url": U, "onlyMainContent": False, "waitFor": 200, **PAGE_BODY}
    assert fake.requests[1].body == {"urls": [U], **PAGE_BODY}


def test_crawl_scrape_options_take_api_or_snake_case_names(fake: FakeApi, fake_client: ServiceClient) -> None:
    fake_client.start_crawl(
        U,
        max_depth=0,
        scrape_options={"formats": ["markdown"], "include_tags": ["main"], "maxAge": 5, "headers_scope": "origin", "store_in_cache": True},
    )
    assert fake.requests[0].body == {
        "url": U,
        "maxDepth": 0,
        "scrapeOptions": {
            "formats": ["markdown"],
            "includeTags": ["main"],
            "maxAge": 5,
            "headersScope": "origin",
            "storeInCache": True,
        },
    }
    with pytest.raises(ValueError, match="both"):
        fake_client.start_crawl(U, scrape_options={"max_age": 1, "maxAge": 2})
    assert len(fake.requests) == 1


def test_extract_and_monitor_send_the_read_only_subset(fake: FakeApi, fake_client: ServiceClient) -> None:
    fake_client.extract(U, prompt="p", wait_for=300, **READ_KW)
    fake_client.create_monitor(U, interval="hourly", wait_for=300, **READ_KW)
    assert fake.requests[0].body == {"url": U, "prompt": "p", "waitFor": 300, **READ_BODY}
    assert fake.requests[1].body == {"url": U, "interval": "hourly", "waitFor": 300, **READ_BODY}
    with pytest.raises(TypeError):
        fake_client.extract(U, formats=["links"])  # type: ignore[call-arg]


def test_async_client_sends_the_same_page_options(fake: FakeApi) -> None:
    async def main() -> None:
        async with AsyncServiceClient("k", fake.url) as c:
            await c.scrape(U, **PAGE_KW)
            await c.start_crawl(U, scrape_options={"headers": {PROBE: "a"}})
            await c.create_monitor(U, **READ_KW)

    asyncio.run(main())
    assert [r.body for r in fake.requests] == [
        {"url": U, **PAGE_BODY},
        {"url": U, "scrapeOptions": {"headers": {PROBE: "a"}}},
        {"url": U, **READ_BODY},
    ]


def test_bad_page_option_shapes_fail_before_any_request(fake: FakeApi, fake_client: ServiceClient) -> None:
    with pytest.raises(TypeError):
        fake_client.scrape(U, formats="links")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        fake_client.scrape(U, actions={"type": "click"})  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        fake_client.scrape(U, headers=[("a", "b")])  # type: ignore[arg-type]
    assert fake.requests == []


def test_screenshot_returns_bytes_under_the_base_url_only(fake: FakeApi, fake_client: ServiceClient) -> None:
    png = PNG_MAGIC + b"rest-of-png"
    fake.reply(200, raw=png, headers={"Content-Type": "image/png"})
    assert fake_client.screenshot(f"{fake.url}/v1/screenshots/abc.png?v=1") == png
    sent = fake.requests[0]
    assert (sent.method, sent.path) == ("GET", "/v1/screenshots/abc.png?v=1")
    assert sent.headers["authorization"] == "Bearer test-key"
    assert sent.headers["accept"].startswith("image/png")

    other = FakeApi()
    try:
        for foreign in (f"{other.url}/v1/screenshots/abc.png", "/v1/screenshots/abc.png", ""):
            with pytest.raises(ValueError) as info:
                fake_client.screenshot(foreign)
            assert "test-key" not in str(info.value)
        assert other.requests == []
    finally:
        other.close()
    assert len(fake.requests) == 1

    fake.error(404, "NOT_FOUND", "Screenshot not found")
    with pytest.raises(ServiceError) as err:
        fake_client.screenshot(f"{fake.url}/v1/screenshots/gone.png")
    assert (err.value.status, err.value.code) == (404, "NOT_FOUND")


def test_screenshot_respects_a_base_path(fake: FakeApi) -> None:
    with ServiceClient("k", fake.url + "/api") as c:
        fake.reply(200, raw=PNG_MAGIC)
        assert c.screenshot(f"{fake.url}/api/v1/screenshots/a.png") == PNG_MAGIC
        with pytest.raises(ValueError):
            c.screenshot(f"{fake.url}/v1/screenshots/a.png")  # outside /api
    assert [r.path for r in fake.requests] == ["/api/v1/screenshots/a.png"]


def test_async_screenshot(fake: FakeApi) -> None:
    fake.reply(200, raw=PNG_MAGIC)

    async def main() -> bytes:
        async with AsyncServiceClient("k", fake.url) as c:
            with pytest.raises(ValueError):
                await c.screenshot("http://elsewhere.invalid/v1/screenshots/a.png")
            return await c.screenshot(f"{fake.url}/v1/screenshots/a.png")

    assert asyncio.run(main()) == PNG_MAGIC
    assert len(fake.requests) == 1


# -- the live service --------------------------------------------------------------------------


class EchoSite:
    """A local page that writes the request's headers into its HTML, with a link and an image."""

    def __init__(self) -> None:
        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                items = "".join(
                    f"<li>header {html.escape(k.lower())} = {html.escape(v)}</li>"
                    for k, v in self.headers.items()
                )
                body = (
                    "<!doctype html><html><head><title>Echo</title></head><body><main><article>"
                    f"<h1>Echo</h1><ul>{items}</ul><p><a href='/next'>next page</a></p>"
                    "<p>Enough ordinary prose for the main-content step to keep this article whole, "
                    "about the harbour, its ships and the people who count them.</p>"
                    "</article></main></body></html>"
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
        host, port = self.server.server_address[:2]
        self.url = f"http://{host}:{port}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def echo() -> Iterator[EchoSite]:
    site = EchoSite()
    try:
        yield site
    finally:
        site.close()


def test_live_scrape_formats_and_header(live: Live, client: ServiceClient, echo: EchoSite) -> None:
    page = client.scrape(echo.url + "/echo", formats=["links", "rawHtml"], headers={PROBE: "py-live-1"})
    data = page["data"]
    assert f"header {PROBE} = py-live-1" in data["rawHtml"]
    assert data["links"] == [echo.url + "/next"]
    assert "markdown" not in data and "html" not in data
    assert data["metadata"]["statusCode"] == 200


def test_live_batch_and_crawl_pass_page_options(live: Live, client: ServiceClient, echo: EchoSite) -> None:
    done = client.batch_scrape_and_wait(
        [echo.url + "/b"], formats=["rawHtml"], headers={PROBE: "py-batch"}, poll_interval=0.2, timeout=60
    )
    results: List[Any] = list(done["results"])
    assert [r["status"] for r in results] == ["done"]
    assert f"header {PROBE} = py-batch" in results[0]["data"]["rawHtml"]

    crawl = client.crawl_and_wait(
        echo.url + "/c",
        max_depth=0,
        scrape_options={"headers": {PROBE: "py-crawl"}},
        poll_interval=0.2,
        timeout=60,
    )
    assert crawl["status"] == "done"
    assert "py-crawl" in crawl["pages"][0]["markdown"]


def test_live_screenshot_is_a_png(live: Live, client: ServiceClient, echo: EchoSite) -> None:
    page = client.scrape(echo.url + "/shot", formats=["screenshot"])
    url = page["data"]["screenshot"]
    assert url.startswith(live.base_url + "/v1/screenshots/")
    png = client.screenshot(url)
    assert isinstance(png, bytes)
    assert png.startswith(PNG_MAGIC) and len(png) > 1000
    with pytest.raises(ValueError):
        client.screenshot(url.replace(live.base_url, echo.url))
