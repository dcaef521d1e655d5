"""The asynchronous client, on ``httpx.AsyncClient``: the same methods as coroutines."""

from __future__ import annotations

import asyncio
import inspect
from types import TracebackType
from typing import Any, Dict, Mapping, Optional, Sequence, Type, TypeVar, cast

import httpx

from . import _endpoints as endpoints
from . import _polling as polling
from ._endpoints import Items, Reasons, UrlsOrItems
from ._page_options import page_options
from ._http import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    ApiRequest,
    Flow,
    Send,
    Sleep,
    call,
    credits_of,
    resolve_config,
)
from ._types import (
    CapabilitiesResponse,
    CreditsInfo,
    AccountResponse,
    BatchCancelResponse,
    BatchListResponse,
    BatchProgressCallback,
    BatchResultResponse,
    BatchResultsResponse,
    BatchStartResponse,
    BatchStatus,
    CrawlListResponse,
    CrawlProgressCallback,
    CrawlResultResponse,
    CrawlResultsResponse,
    CrawlStartResponse,
    CrawlStatus,
    CrawlSummary,
    Engine,
    ExtractResponse,
    Format,
    HeadersScope,
    Interval,
    KeyCreateResponse,
    KeyListResponse,
    KeyUpdateResponse,
    KeyRevokeResponse,
    LedgerResponse,
    Location,
    MapResponse,
    MonitorCreateResponse,
    MonitorDetailResponse,
    MonitorListResponse,
    MonitorResponse,
    PageAction,
    PageFormat,
    ParseFormat,
    Proxy,
    ScrapeOptions,
    ScrapeResponse,
    SearchResponse,
    UsageResponse,
    WebhookFormat,
    WebhookSecretResponse,
)

__all__ = ["AsyncServiceClient"]

T = TypeVar("T")
_Self = TypeVar("_Self", bound="AsyncServiceClient")


class AsyncServiceClient:
    """Asynchronous client of the web-content service: :class:`ServiceClient`'s methods as
    coroutines (``await client.scrape(...)``); the polling helpers sleep with ``asyncio.sleep``
    and also accept a coroutine function as ``on_progress``.

    Configuration is the same as :class:`ServiceClient`. Use it as an async context manager
    (``async with AsyncServiceClient() as client:``) or call :meth:`aclose`.
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
    ) -> None:
        self._config = resolve_config(api_key, base_url, timeout, max_retries)
        self._last_credits: Optional[CreditsInfo] = None
        self._client = httpx.AsyncClient(**self._config.client_options())

    # -- lifecycle ------------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return self._config.base_url

    @property
    def last_credits(self) -> Optional[CreditsInfo]:
        """What the latest billable call cost: ``{"used", "remaining"}`` from its
        ``X-Credits-Used`` / ``X-Credits-Remaining`` headers (also after a refused or failed call
        whose answer had them); None before any. With concurrent calls on one client it is the
        last answer to arrive."""
        return self._last_credits

    @property
    def timeout(self) -> float:
        return self._config.timeout

    @property
    def max_retries(self) -> int:
        return self._config.max_retries

    @property
    def is_closed(self) -> bool:
        """True once :meth:`aclose` ran (or the ``async with`` block ended)."""
        return self._client.is_closed

    async def aclose(self) -> None:
        """Closes the connection pool; the client cannot be used afterwards."""
        await self._client.aclose()

    async def __aenter__(self: _Self) -> _Self:
        return self

    async def __aexit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        return f"AsyncServiceClient(base_url={self.base_url!r})"

    # -- plumbing -------------------------------------------------------------------------------

    async def _run(self, flow: Flow[T]) -> T:
        """Performs the actions of a flow (see ``_http.py``) until it returns."""
        value: Any = None
        error: Optional[BaseException] = None
        try:
            while True:
                try:
                    action = flow.send(value) if error is None else flow.throw(error)
                except StopIteration as stop:
                    return cast(T, stop.value)
                value, error = None, None
                if isinstance(action, Send):
                    try:
                        value = await self._send(action.request)
                    except httpx.TransportError as exc:
                        error = exc
                elif isinstance(action, Sleep):
                    await asyncio.sleep(action.seconds)
                else:
                    result = action.callback(action.payload)
                    if inspect.isawaitable(result):
                        await result
        finally:
            flow.close()

    async def _send(self, request: ApiRequest) -> httpx.Response:
        response = await self._client.request(
            request.method,
            request.path,
            json=request.json,
            content=request.content,
            params=request.params,
            headers=request.headers(),
        )
        credits = credits_of(response)
        if credits is not None:
            self._last_credits = credits
        return response

    async def _call(self, request: ApiRequest) -> Any:
        return await self._run(call(request, self._config))

    # -- scrape ---------------------------------------------------------------------------------

    async def scrape(
        self,
        url: str,
        *,
        format: Optional[Format] = None,
        only_main_content: Optional[bool] = None,
        engine: Optional[Engine] = None,
        wait_for: Optional[int] = None,
        timeout_ms: Optional[int] = None,
        formats: Optional[Sequence[PageFormat]] = None,
        headers: Optional[Mapping[str, str]] = None,
        headers_scope: Optional[HeadersScope] = None,
        actions: Optional[Sequence[PageAction]] = None,
        mobile: Optional[bool] = None,
        location: Optional[Location] = None,
        include_tags: Optional[Sequence[str]] = None,
        exclude_tags: Optional[Sequence[str]] = None,
        proxy: Optional[Proxy] = None,
        max_age: Optional[int] = None,
        store_in_cache: Optional[bool] = None,
    ) -> ScrapeResponse:
        """``POST /v1/scrape``: one page as markdown, html and text (+ ``json`` when asked).

        ``wait_for`` (ms) waits after load in the browser; ``timeout_ms`` is the server-side
        budget (1000-120000 ms).
        Page options (README "Page options"): ``formats`` picks exactly what ``data`` holds
        (``rawHtml``, ``links``, ``images``, ``screenshot``…); ``headers`` go with the page
        request, to its URL's origin only (``headers_scope="all"``: every origin but
        Authorization/Cookie); ``actions`` are browser steps; ``mobile``, ``location``, ``include_tags`` /
        ``exclude_tags`` (CSS selectors), ``proxy``, ``max_age`` (ms: serve a stored copy this young) and
        ``store_in_cache`` (default true: store this page for later ``max_age`` reads).
        """
        request = endpoints.scrape(
            url,
            format=format,
            only_main_content=only_main_content,
            engine=engine,
            wait_for=wait_for,
            timeout_ms=timeout_ms,
            page=page_options(
                formats=formats,
                headers=headers,
                headers_scope=headers_scope,
                actions=actions,
                mobile=mobile,
                location=location,
                include_tags=include_tags,
                exclude_tags=exclude_tags,
                proxy=proxy,
                max_age=max_age,
                store_in_cache=store_in_cache,
            ),
        )
        return cast(ScrapeResponse, await self._call(request))

    async def parse(
        self,
        file: bytes,
        *,
        filename: Optional[str] = None,
        format: Optional[Format] = None,
        formats: Optional[Sequence[ParseFormat]] = None,
        only_main_content: Optional[bool] = None,
        include_tags: Optional[Sequence[str]] = None,
        exclude_tags: Optional[Sequence[str]] = None,
        timeout_ms: Optional[int] = None,
    ) -> ScrapeResponse:
        """``POST /v1/parse``: a PDF, DOCX or HTML file you have (its bytes) converted like a
        scraped page, 1 credit. The type is read from the bytes; ``filename`` names it in
        ``metadata.sourceURL`` (``file:///<filename>``). Page options that apply to a file:
        ``formats``, ``only_main_content``, ``include_tags`` / ``exclude_tags``."""
        request = endpoints.parse(
            file,
            format=format,
            formats=formats,
            only_main_content=only_main_content,
            include_tags=include_tags,
            exclude_tags=exclude_tags,
            timeout_ms=timeout_ms,
            filename=filename,
        )
        return cast(ScrapeResponse, await self._call(request))

    async def screenshot(self, url: str) -> bytes:
        """The PNG behind a screenshot URL (``data["screenshot"]``, ``data["actions"]
        ["screenshots"]``), fetched with this client's key. Only a URL under the client's
        ``base_url`` is fetched (``ValueError`` otherwise), so the key never goes elsewhere;
        an expired or unknown one is ``ServiceError`` 404."""
        request = endpoints.screenshot(url, self.base_url)
        return cast(bytes, await self._call(request))

    # -- crawl ----------------------------------------------------------------------------------

    async def start_crawl(
        self,
        url: str,
        *,
        max_depth: Optional[int] = None,
        max_pages: Optional[int] = None,
        include_paths: Optional[Sequence[str]] = None,
        exclude_paths: Optional[Sequence[str]] = None,
        allow_subdomains: Optional[bool] = None,
        ignore_robots_txt: Optional[bool] = None,
        format: Optional[Format] = None,
        only_main_content: Optional[bool] = None,
        delay_ms: Optional[int] = None,
        scrape_options: Optional[ScrapeOptions] = None,
    ) -> CrawlStartResponse:
        """``POST /v1/crawl``: starts a crawl and answers at once with its ``id``.

        ``include_paths`` / ``exclude_paths`` are JavaScript regular expressions tested against
        the path plus query string. ``scrape_options`` holds the page options of every page
        (``{"formats": [...], "headers": {...}, "includeTags": [...], ...}``).
        """
        request = endpoints.start_crawl(
            url,
            max_depth=max_depth,
            max_pages=max_pages,
            include_paths=include_paths,
            exclude_paths=exclude_paths,
            allow_subdomains=allow_subdomains,
            ignore_robots_txt=ignore_robots_txt,
            format=format,
            only_main_content=only_main_content,
            delay_ms=delay_ms,
            scrape_options=scrape_options,
        )
        return cast(CrawlStartResponse, await self._call(request))

    async def get_crawl_status(
        self, crawl_id: str, *, skip: Optional[int] = None, limit: Optional[int] = None
    ) -> CrawlStatus:
        """``GET /v1/crawl/:id``: status plus one page of ``pages`` / ``failedPages``."""
        request = endpoints.get_crawl_status(crawl_id, skip=skip, limit=limit)
        return cast(CrawlStatus, await self._call(request))

    async def cancel_crawl(self, crawl_id: str) -> CrawlSummary:
        """``DELETE /v1/crawl/:id``: stops the crawl (``failed``, ``stopReason: cancelled``);
        answers the status without pages. Idempotent: a finished crawl stays as it was."""
        return cast(CrawlSummary, await self._call(endpoints.cancel_crawl(crawl_id)))

    async def crawl_and_wait(
        self,
        url: str,
        *,
        max_depth: Optional[int] = None,
        max_pages: Optional[int] = None,
        include_paths: Optional[Sequence[str]] = None,
        exclude_paths: Optional[Sequence[str]] = None,
        allow_subdomains: Optional[bool] = None,
        ignore_robots_txt: Optional[bool] = None,
        format: Optional[Format] = None,
        only_main_content: Optional[bool] = None,
        delay_ms: Optional[int] = None,
        scrape_options: Optional[ScrapeOptions] = None,
        poll_interval: float = 2.0,
        timeout: float = 600.0,
        on_progress: Optional[CrawlProgressCallback] = None,
    ) -> CrawlStatus:
        """Starts a crawl, polls it every ``poll_interval`` seconds until ``done`` or ``failed``
        and returns the final status with ALL ``pages`` and ``failedPages`` (no ``next``).

        A ``failed`` crawl is returned, not raised: check ``status`` and ``stopReason``.
        ``on_progress`` receives ``{status, total, completed, failed}`` after every poll. Past
        ``timeout`` seconds: ``ServiceError(status=0, code="CLIENT_TIMEOUT")`` whose message
        names the crawl id (the crawl keeps running; ``details["id"]`` holds the id).
        """
        start = endpoints.start_crawl(
            url,
            max_depth=max_depth,
            max_pages=max_pages,
            include_paths=include_paths,
            exclude_paths=exclude_paths,
            allow_subdomains=allow_subdomains,
            ignore_robots_txt=ignore_robots_txt,
            format=format,
            only_main_content=only_main_content,
            delay_ms=delay_ms,
            scrape_options=scrape_options,
        )
        flow = polling.crawl_and_wait(
            start,
            self._config,
            poll_interval=poll_interval,
            timeout=timeout,
            on_progress=on_progress,
        )
        return cast(CrawlStatus, await self._run(flow))

    # -- map, search, extract --------------------------------------------------------------------

    async def map(
        self,
        url: str,
        *,
        max_urls: Optional[int] = None,
        search: Optional[str] = None,
        include_subdomains: Optional[bool] = None,
        ignore_sitemap: Optional[bool] = None,
        timeout_ms: Optional[int] = None,
        link_metadata: Optional[bool] = None,
        sitemap_only: Optional[bool] = None,
    ) -> MapResponse:
        """``POST /v1/map``: the site's URLs (``links``, ``total``) without crawling it."""
        request = endpoints.map(
            url,
            max_urls=max_urls,
            search=search,
            include_subdomains=include_subdomains,
            ignore_sitemap=ignore_sitemap,
            timeout_ms=timeout_ms,
            link_metadata=link_metadata,
            sitemap_only=sitemap_only,
        )
        return cast(MapResponse, await self._call(request))

    async def search(
        self,
        query: str,
        *,
        num_results: Optional[int] = None,
        country: Optional[str] = None,
        lang: Optional[str] = None,
        scrape: Optional[bool] = None,
        fresh: Optional[bool] = None,
        format: Optional[Format] = None,
        only_main_content: Optional[bool] = None,
        timeout_ms: Optional[int] = None,
        summary: Optional[bool] = None,
    ) -> SearchResponse:
        """``POST /v1/search``: web search, each hit scraped (unless ``scrape=False``).

        A hit that could not be scraped has ``markdown: None`` and an ``error``. ``summary=True``
        adds each scraped result's ``summary`` (the extract model's; 2 + 5 credits a result).
        """
        request = endpoints.search(
            query,
            num_results=num_results,
            country=country,
            lang=lang,
            scrape=scrape,
            fresh=fresh,
            format=format,
            only_main_content=only_main_content,
            timeout_ms=timeout_ms,
            summary=summary,
        )
        return cast(SearchResponse, await self._call(request))

    async def extract(
        self,
        url: str,
        *,
        schema: Optional[Dict[str, Any]] = None,
        prompt: Optional[str] = None,
        timeout_ms: Optional[int] = None,
        wait_for: Optional[int] = None,
        headers: Optional[Mapping[str, str]] = None,
        headers_scope: Optional[HeadersScope] = None,
        actions: Optional[Sequence[PageAction]] = None,
        mobile: Optional[bool] = None,
        location: Optional[Location] = None,
        include_tags: Optional[Sequence[str]] = None,
        exclude_tags: Optional[Sequence[str]] = None,
        proxy: Optional[Proxy] = None,
    ) -> ExtractResponse:
        """``POST /v1/extract``: structured data shaped like ``schema`` (and/or per ``prompt``).

        ``schema`` is plain JSON: ``"string"``, ``"number"``, ``"boolean"``, nested objects and
        one-element lists. Fields the page does not contain come back ``None``. The page is
        fetched with the page options given (``wait_for``, ``headers``, ``actions``, ``mobile``,
        ``location``, ``include_tags``, ``exclude_tags``, ``proxy``).
        """
        request = endpoints.extract(
            url,
            schema=schema,
            prompt=prompt,
            timeout_ms=timeout_ms,
            wait_for=wait_for,
            page=page_options(
                headers=headers,
                headers_scope=headers_scope,
                actions=actions,
                mobile=mobile,
                location=location,
                include_tags=include_tags,
                exclude_tags=exclude_tags,
                proxy=proxy,
            ),
        )
        return cast(ExtractResponse, await self._call(request))

    # -- monitors -------------------------------------------------------------------------------

    async def create_monitor(
        self,
        url: str,
        *,
        interval: Optional[Interval] = None,
        cron: Optional[str] = None,
        timezone: Optional[str] = None,
        webhook_url: Optional[str] = None,
        wait_for: Optional[int] = None,
        headers: Optional[Mapping[str, str]] = None,
        headers_scope: Optional[HeadersScope] = None,
        actions: Optional[Sequence[PageAction]] = None,
        mobile: Optional[bool] = None,
        location: Optional[Location] = None,
        include_tags: Optional[Sequence[str]] = None,
        exclude_tags: Optional[Sequence[str]] = None,
        proxy: Optional[Proxy] = None,
        ignore_text: Optional[Sequence[str]] = None,
        threshold: Optional[float] = None,
        goal: Optional[str] = None,
        webhook_format: Optional[WebhookFormat] = None,
    ) -> MonitorCreateResponse:
        """``POST /v1/monitor``: watch a page (``hourly``/``daily``/``weekly``; default daily).
        Every check fetches it with the page options given (``wait_for``, ``headers``, …).
        ``ignore_text``: lines left out (substrings or ``/regex/flags``); ``threshold``: share of
        words (0–1) that must change; ``goal``: each change is judged against it by the model.
        ``cron`` (5 fields, at most hourly) read in ``timezone`` (IANA, default UTC) instead of
        ``interval``."""
        request = endpoints.create_monitor(
            url,
            interval=interval,
            cron=cron,
            timezone=timezone,
            webhook_url=webhook_url,
            wait_for=wait_for,
            ignore_text=ignore_text,
            threshold=threshold,
            goal=goal,
            webhook_format=webhook_format,
            page=page_options(
                headers=headers,
                headers_scope=headers_scope,
                actions=actions,
                mobile=mobile,
                location=location,
                include_tags=include_tags,
                exclude_tags=exclude_tags,
                proxy=proxy,
            ),
        )
        return cast(MonitorCreateResponse, await self._call(request))

    async def list_monitors(
        self, *, skip: Optional[int] = None, limit: Optional[int] = None
    ) -> MonitorListResponse:
        """``GET /v1/monitor``: this account's monitors, newest first (``next`` while more)."""
        request = endpoints.list_monitors(skip=skip, limit=limit)
        return cast(MonitorListResponse, await self._call(request))

    async def get_monitor(self, monitor_id: str) -> MonitorDetailResponse:
        """``GET /v1/monitor/:id``: the monitor with its changes, checks and webhook deliveries."""
        return cast(MonitorDetailResponse, await self._call(endpoints.get_monitor(monitor_id)))

    async def delete_monitor(self, monitor_id: str) -> MonitorResponse:
        """``DELETE /v1/monitor/:id``: cancels the monitor (idempotent); its history stays."""
        return cast(MonitorResponse, await self._call(endpoints.delete_monitor(monitor_id)))

    # -- batch scrape ---------------------------------------------------------------------------

    async def start_batch_scrape(
        self,
        urls: Optional[UrlsOrItems] = None,
        *,
        items: Optional[Items] = None,
        format: Optional[Format] = None,
        only_main_content: Optional[bool] = None,
        formats: Optional[Sequence[PageFormat]] = None,
        headers: Optional[Mapping[str, str]] = None,
        headers_scope: Optional[HeadersScope] = None,
        actions: Optional[Sequence[PageAction]] = None,
        mobile: Optional[bool] = None,
        location: Optional[Location] = None,
        include_tags: Optional[Sequence[str]] = None,
        exclude_tags: Optional[Sequence[str]] = None,
        proxy: Optional[Proxy] = None,
        max_age: Optional[int] = None,
        store_in_cache: Optional[bool] = None,
    ) -> BatchStartResponse:
        """``POST /v1/batch/scrape``: ``urls`` (full URLs) or ``items`` (``{"id"?, "url"}``,
        ids echoed on results; a ``urls`` list of dicts is sent as items). Answers at once.
        The page options (as :meth:`scrape` takes them) apply to every item."""
        request = endpoints.start_batch_scrape(
            urls,
            items=items,
            format=format,
            only_main_content=only_main_content,
            page=page_options(
                formats=formats,
                headers=headers,
                headers_scope=headers_scope,
                actions=actions,
                mobile=mobile,
                location=location,
                include_tags=include_tags,
                exclude_tags=exclude_tags,
                proxy=proxy,
                max_age=max_age,
                store_in_cache=store_in_cache,
            ),
        )
        return cast(BatchStartResponse, await self._call(request))

    async def get_batch_scrape_status(
        self, batch_id: str, *, skip: Optional[int] = None, limit: Optional[int] = None
    ) -> BatchStatus:
        """``GET /v1/batch/scrape/:id``: status plus the finished ``results`` so far."""
        request = endpoints.get_batch_scrape_status(batch_id, skip=skip, limit=limit)
        return cast(BatchStatus, await self._call(request))

    async def cancel_batch_scrape(self, batch_id: str) -> BatchCancelResponse:
        """``DELETE /v1/batch/scrape/:id``: every unfinished item fails with code ``CANCELLED``
        and is refunded; items already done are kept. Idempotent: ``cancelled`` is 0 the second time."""
        return cast(BatchCancelResponse, await self._call(endpoints.cancel_batch_scrape(batch_id)))

    async def batch_scrape_and_wait(
        self,
        urls: Optional[UrlsOrItems] = None,
        *,
        items: Optional[Items] = None,
        format: Optional[Format] = None,
        only_main_content: Optional[bool] = None,
        formats: Optional[Sequence[PageFormat]] = None,
        headers: Optional[Mapping[str, str]] = None,
        headers_scope: Optional[HeadersScope] = None,
        actions: Optional[Sequence[PageAction]] = None,
        mobile: Optional[bool] = None,
        location: Optional[Location] = None,
        include_tags: Optional[Sequence[str]] = None,
        exclude_tags: Optional[Sequence[str]] = None,
        proxy: Optional[Proxy] = None,
        max_age: Optional[int] = None,
        store_in_cache: Optional[bool] = None,
        poll_interval: float = 2.0,
        timeout: float = 600.0,
        on_progress: Optional[BatchProgressCallback] = None,
    ) -> BatchStatus:
        """Starts a batch, polls it every ``poll_interval`` seconds until ``done`` and returns
        the final poll with ALL ``results``. A failed item is a result with ``status: failed``
        and an ``error``, not an exception. Past ``timeout`` seconds: ``ServiceError(status=0,
        code="CLIENT_TIMEOUT")`` (the batch keeps running; ``details["id"]`` holds its id).
        """
        start = endpoints.start_batch_scrape(
            urls,
            items=items,
            format=format,
            only_main_content=only_main_content,
            page=page_options(
                formats=formats,
                headers=headers,
                headers_scope=headers_scope,
                actions=actions,
                mobile=mobile,
                location=location,
                include_tags=include_tags,
                exclude_tags=exclude_tags,
                proxy=proxy,
                max_age=max_age,
                store_in_cache=store_in_cache,
            ),
        )
        flow = polling.batch_scrape_and_wait(
            start,
            self._config,
            poll_interval=poll_interval,
            timeout=timeout,
            on_progress=on_progress,
        )
        return cast(BatchStatus, await self._run(flow))

    # -- webhooks -------------------------------------------------------------------------------

    async def get_webhook_secret(self) -> WebhookSecretResponse:
        """``GET /v1/webhook/secret``: the key of the ``X-Signature`` HMAC on webhook POSTs."""
        return cast(WebhookSecretResponse, await self._call(endpoints.get_webhook_secret()))

    # -- monitor pause / resume ------------------------------------------------------------------

    async def update_monitor(
        self,
        monitor_id: str,
        *,
        interval: Optional[Interval] = endpoints.UNSET,
        cron: Optional[str] = endpoints.UNSET,
        timezone: Optional[str] = endpoints.UNSET,
        webhook_url: Optional[str] = endpoints.UNSET,
        webhook_format: Optional[WebhookFormat] = endpoints.UNSET,
        ignore_text: Optional[Sequence[str]] = endpoints.UNSET,
        threshold: Optional[float] = endpoints.UNSET,
        goal: Optional[str] = endpoints.UNSET,
    ) -> MonitorResponse:
        """``PATCH /v1/monitor/:id``: change the schedule (``interval``, or ``cron`` + ``timezone``),
        the rules, the goal or the webhook. A field not passed stays; ``None`` removes
        ``webhook_url`` or ``goal``; ``ignore_text=[]`` clears the rules. Free."""
        request = endpoints.update_monitor(
            monitor_id,
            interval=interval,
            cron=cron,
            timezone=timezone,
            webhook_url=webhook_url,
            webhook_format=webhook_format,
            ignore_text=ignore_text,
            threshold=threshold,
            goal=goal,
        )
        return cast(MonitorResponse, await self._call(request))

    async def pause_monitor(self, monitor_id: str) -> MonitorResponse:
        """``POST /v1/monitor/:id/pause``: no checks (and no credits) until resumed; 409 when
        the monitor is cancelled."""
        return cast(MonitorResponse, await self._call(endpoints.pause_monitor(monitor_id)))

    async def resume_monitor(self, monitor_id: str) -> MonitorResponse:
        """``POST /v1/monitor/:id/resume``: 409 when cancelled, or paused for lack of credits
        (that one resumes by itself once the account has credits)."""
        return cast(MonitorResponse, await self._call(endpoints.resume_monitor(monitor_id)))

    # -- account (free; each call counts toward the rate limit) ------------------------------------

    async def account(self) -> AccountResponse:
        """``GET /v1/account``: balance, plan, credits used in the last 30 days, rate-limit headroom."""
        return cast(AccountResponse, await self._call(endpoints.account()))

    async def capabilities(self) -> CapabilitiesResponse:
        """``GET /v1/capabilities``: what this deployment offers (engines, documents and OCR, the
        extract model, search provider, proxy count, formats, page options, Firecrawl routes) and
        every limit a caller meets, this plan's rate limit included. Free."""
        return cast(CapabilitiesResponse, await self._call(endpoints.capabilities()))

    async def usage(self, *, days: Optional[int] = None) -> UsageResponse:
        """``GET /v1/usage``: net credits per UTC day and operation for the last ``days`` (1-366,
        default 30), oldest first, every day present."""
        return cast(UsageResponse, await self._call(endpoints.usage(days=days)))

    async def ledger(
        self,
        *,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        reason: Optional[Reasons] = None,
    ) -> LedgerResponse:
        """``GET /v1/ledger``: one page of the credit ledger, newest first (``limit`` 1-500,
        default 50). Older rows: pass the last row's ``id`` as ``cursor``. ``reason`` filters
        (``"scrape"``, ``["scrape", "scrape_refund"]``)."""
        request = endpoints.ledger(limit=limit, cursor=cursor, reason=reason)
        return cast(LedgerResponse, await self._call(request))

    async def ledger_csv(self, *, reason: Optional[Reasons] = None) -> str:
        """``GET /v1/ledger.csv``: the whole (filtered) ledger as CSV text, starting with the
        header ``id,time,reason,amount,reference,balance_after``."""
        return cast(str, await self._call(endpoints.ledger_csv(reason=reason)))

    async def list_keys(self) -> KeyListResponse:
        """``GET /v1/keys``: the account's API keys (prefixes only), oldest first."""
        return cast(KeyListResponse, await self._call(endpoints.list_keys()))

    async def create_key(
        self,
        *,
        name: Optional[str] = None,
        daily_credit_limit: Optional[int] = None,
        monthly_credit_limit: Optional[int] = None,
    ) -> KeyCreateResponse:
        """``POST /v1/keys``: a new key; ``data["key"]`` is the full key, returned this once.
        ``daily_credit_limit`` / ``monthly_credit_limit``: credits it may spend per UTC day / month
        (a call past one is 402 ``KEY_BUDGET_EXCEEDED``); ``None`` = no limit."""
        request = endpoints.create_key(
            name=name, daily_credit_limit=daily_credit_limit, monthly_credit_limit=monthly_credit_limit
        )
        return cast(KeyCreateResponse, await self._call(request))

    async def update_key(
        self,
        key_id: str,
        *,
        name: Optional[str] = endpoints.UNSET,
        daily_credit_limit: Optional[int] = endpoints.UNSET,
        monthly_credit_limit: Optional[int] = endpoints.UNSET,
    ) -> KeyUpdateResponse:
        """``PATCH /v1/keys/:id``: change the name or the credit limits. A field not passed stays;
        ``None`` removes it. 403 when this client's own key has a limit."""
        request = endpoints.update_key(
            key_id, name=name, daily_credit_limit=daily_credit_limit, monthly_credit_limit=monthly_credit_limit
        )
        return cast(KeyUpdateResponse, await self._call(request))

    async def revoke_key(self, key_id: str) -> KeyRevokeResponse:
        """``DELETE /v1/keys/:id``: revoke (idempotent); 409 for the account's last active key."""
        return cast(KeyRevokeResponse, await self._call(endpoints.revoke_key(key_id)))

    # -- job listings (free) ---------------------------------------------------------------------

    async def list_batches(
        self, *, skip: Optional[int] = None, limit: Optional[int] = None
    ) -> BatchListResponse:
        """``GET /v1/batch/scrape``: the account's batches, newest first (``limit`` <= 100)."""
        request = endpoints.list_batches(skip=skip, limit=limit)
        return cast(BatchListResponse, await self._call(request))

    async def batch_results(
        self, batch_id: str, *, skip: Optional[int] = None, limit: Optional[int] = None
    ) -> BatchResultsResponse:
        """``GET /v1/batch/scrape/:id/results``: a batch's items by position, any status,
        without documents (``limit`` <= 500)."""
        request = endpoints.batch_results(batch_id, skip=skip, limit=limit)
        return cast(BatchResultsResponse, await self._call(request))

    async def batch_result(self, batch_id: str, item_id: str) -> BatchResultResponse:
        """``GET /v1/batch/scrape/:id/results/:itemId``: one item with its stored document."""
        request = endpoints.batch_result(batch_id, item_id)
        return cast(BatchResultResponse, await self._call(request))

    async def list_crawls(
        self, *, skip: Optional[int] = None, limit: Optional[int] = None
    ) -> CrawlListResponse:
        """``GET /v1/crawl``: the account's crawls, newest first (``limit`` <= 100)."""
        request = endpoints.list_crawls(skip=skip, limit=limit)
        return cast(CrawlListResponse, await self._call(request))

    async def crawl_results(
        self, crawl_id: str, *, skip: Optional[int] = None, limit: Optional[int] = None
    ) -> CrawlResultsResponse:
        """``GET /v1/crawl/:id/results``: every page of the crawl's frontier in discovery order,
        any status, without documents (``limit`` <= 500)."""
        request = endpoints.crawl_results(crawl_id, skip=skip, limit=limit)
        return cast(CrawlResultsResponse, await self._call(request))

    async def crawl_result(self, crawl_id: str, page_id: str) -> CrawlResultResponse:
        """``GET /v1/crawl/:id/results/:pageId``: one crawled page with its stored document."""
        request = endpoints.crawl_result(crawl_id, page_id)
        return cast(CrawlResultResponse, await self._call(request))
