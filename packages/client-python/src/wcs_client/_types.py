"""Shapes of the API's responses and of the polling helpers' progress payloads.

Every response is returned as the parsed JSON body, unchanged: these are plain ``dict``\\ s at
run time, typed with :class:`typing.TypedDict` so editors and type checkers know the keys.
Keys that are not always present are marked in the docstrings; the service may add keys in
later versions (TypedDicts do not stop them from appearing).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Literal, Optional, TypedDict

__all__ = [
    "Account",
    "AccountPlan",
    "AccountResponse",
    "ActionOutputs",
    "ApiKeyInfo",
    "BatchItem",
    "BatchListResponse",
    "BatchProgress",
    "BatchProgressCallback",
    "BatchResult",
    "BatchResultDetail",
    "BatchResultResponse",
    "BatchResultRow",
    "BatchResultsResponse",
    "BatchStartResponse",
    "BatchStatus",
    "BatchStatusValue",
    "BatchSummary",
    "ChangeTracking",
    "CrawlFailedPage",
    "CrawlListItem",
    "CrawlListResponse",
    "CrawlPage",
    "CrawlProgress",
    "CrawlProgressCallback",
    "CrawlResultDetail",
    "CrawlResultResponse",
    "CrawlResultRow",
    "CrawlResultsResponse",
    "CrawlStartResponse",
    "CrawlStatus",
    "CrawlStatusValue",
    "CrawlSummary",
    "CreatedKey",
    "Engine",
    "ExtractResponse",
    "FetchAttempt",
    "Format",
    "HeadersScope",
    "Interval",
    "IrrelevantChange",
    "MonitorIntervalValue",
    "Judgement",
    "KeyCreateResponse",
    "KeyListResponse",
    "KeyRevokeResponse",
    "LedgerEntry",
    "Location",
    "LedgerResponse",
    "MapResponse",
    "Monitor",
    "MonitorChange",
    "MonitorCheck",
    "MonitorCreateResponse",
    "MonitorDetail",
    "MonitorDetailResponse",
    "MonitorDiff",
    "MonitorListResponse",
    "MonitorResponse",
    "MonitorStatusValue",
    "MonitorSummary",
    "PageAction",
    "PageFormat",
    "PageMetadata",
    "PageVerdict",
    "Proxy",
    "RateLimit",
    "RevokedKey",
    "ScrapeData",
    "ScrapeOptions",
    "ScrapeResponse",
    "SearchResponse",
    "SearchResult",
    "StopReason",
    "TargetErrorDetails",
    "Usage",
    "UsageDay",
    "UsageResponse",
    "UsageTotals",
    "WebhookDelivery",
    "WebhookFormat",
    "WebhookSecret",
    "WebhookSecretResponse",
]

# -- parameter values ------------------------------------------------------------------------

Format = Literal["markdown", "html", "text", "json"]
"""Output format: ``markdown`` (default); ``html``/``text``/``json`` add that key to results."""

PageFormat = Literal[
    "markdown",
    "html",
    "rawHtml",
    "text",
    "json",
    "links",
    "images",
    "screenshot",
    "screenshot@fullPage",
    "summary",
]
"""A ``formats`` entry (page options): ``data`` holds exactly the formats named (+ ``metadata``)."""

ParseFormat = Literal["markdown", "html", "rawHtml", "text", "json", "links", "summary"]
"""A ``formats`` entry of ``parse``: what an uploaded file has (nothing is rendered)."""

Proxy = Literal["none", "default", "auto"]
"""``auto`` (the default): direct, then once through the next of the service's ``PROXY_URLS``
when a wall still stands after the browser; ``default``: every request through the next of
``PROXY_URLS`` (direct when none); ``none``: direct."""

HeadersScope = Literal["origin", "all"]
"""Where ``headers`` go: ``origin`` (default) to the requested URL's origin only; ``all`` to every
origin, but ``Authorization`` and ``Cookie`` never leave the requested URL's origin."""

PageAction = Dict[str, Any]
"""A browser step, ``{"type": ..., ...}``: ``wait`` (``milliseconds`` or ``selector``), ``click``
(``selector``, ``all``), ``write`` (``text``), ``press`` (``key``), ``scroll`` (``direction``,
``selector``), ``executeJavascript`` (``script``), ``screenshot`` (``fullPage``)."""


class Location(TypedDict, total=False):
    """``{"country": "DE", "languages": ["de-DE"]}`` (country default ``US``)."""

    country: str
    languages: List[str]


class ScrapeOptions(TypedDict, total=False):
    """A crawl's ``scrape_options``: page options applied to every page, under the API's names
    (the snake_case spellings ``include_tags``, ``exclude_tags``, ``max_age``, ``store_in_cache`` are accepted too)."""

    headers: Dict[str, str]
    headersScope: HeadersScope
    formats: List[PageFormat]
    actions: List[PageAction]
    mobile: bool
    location: Location
    includeTags: List[str]
    excludeTags: List[str]
    proxy: Proxy
    maxAge: int
    storeInCache: bool


Engine = Literal["auto", "fetch", "browser"]
Interval = Literal["hourly", "daily", "weekly"]
# A monitor's interval as read back: "cron" for a cron schedule.
MonitorIntervalValue = Literal["hourly", "daily", "weekly", "cron"]
CrawlStatusValue = Literal["pending", "processing", "done", "failed"]
BatchStatusValue = Literal["pending", "processing", "done"]
MonitorStatusValue = Literal["active", "paused", "cancelled"]
WebhookFormat = Literal["json", "slack", "discord"]
StopReason = Literal[
    "completed", "max_pages", "cancelled", "out_of_credits", "key_budget_exceeded", "timeout", "error"
]


# -- scrape ----------------------------------------------------------------------------------


class _PageMetadataRequired(TypedDict):
    title: Optional[str]
    statusCode: int
    sourceURL: str


class PageMetadata(_PageMetadataRequired, total=False):
    """Metadata of a scraped page: ``title``, ``statusCode`` and ``sourceURL`` always;
    ``finalUrl`` (the URL after redirects), ``description``, ``language``, ``canonicalUrl`` and
    the others when known (a search hit served from the stored copy has ``language`` and
    ``cachedAt``). Checked against the API's OpenAPI document by tests/src/contract-drift.test.ts."""

    description: Optional[str]
    language: Optional[str]
    canonicalUrl: Optional[str]
    finalUrl: str
    ogImage: Optional[str]
    author: Optional[str]
    publishedTime: Optional[str]
    pageType: Literal[
        "article", "forum", "product", "collection", "listing", "documentation", "service"
    ]
    """What kind of page this is (HTML pages), classified from its structured data, URL and shape."""
    cachedAt: str
    cacheState: Literal["hit", "miss", "revalidated"]
    """``hit`` when served from the page cache (``max_age``), ``miss`` when fetched and stored."""
    revalidatedBy: Literal["not-modified", "sitemap-lastmod"]
    """Tracked pages answered with the account's stored copy, nothing downloaded: ``not-modified``
    (the site answered 304), ``sitemap-lastmod`` (a crawl with ``trustSitemapLastmod`` did not ask:
    the sitemap's lastmod is not after the copy)."""
    contentType: str
    pages: int
    """Documents (PDF): pages in the file."""
    createdAt: str
    """Documents (PDF, DOCX): when the document says it was created (ISO time)."""
    verdict: PageVerdict
    """What the page is: ``content``, or ``parked`` / ``login-wall`` / ``empty`` (delivered with
    a ``warning`` saying so). Walls and error pages are not delivered: they fail with
    ``TARGET_BLOCKED`` or ``TARGET_HTTP_ERROR`` (see :class:`TargetErrorDetails`)."""
    attempts: List["FetchAttempt"]
    """Only when the page needed escalation (a wall, a ``Retry-After``): every step, in order."""


PageVerdict = Literal[
    "content", "blocked", "soft-404", "error-page", "parked", "login-wall", "empty"
]
"""The verdict on a page (``metadata["verdict"]``)."""


class TargetErrorDetails(TypedDict, total=False):
    """``ServiceError.details`` of the target's failures. ``TARGET_HTTP_ERROR``: ``statusCode``
    (the status answered, or the one a 200 page shows) and ``soft`` (``True`` when the page was
    a 200 "not found" or error page). ``TARGET_BLOCKED``: ``reason`` (``challenge``,
    ``captcha``, ``access-denied``, ``rate-limited``), ``vendor`` when recognised (e.g.
    ``cloudflare``) and ``statusCode`` when the answer's status said so."""

    statusCode: int
    soft: bool
    reason: Literal["challenge", "captcha", "access-denied", "rate-limited"]
    vendor: str
    attempts: List["FetchAttempt"]


class _FetchAttemptRequired(TypedDict):
    engine: Literal["fetch", "browser"]


class FetchAttempt(_FetchAttemptRequired, total=False):
    """One step of the fetch ladder (``metadata.attempts``, and ``details.attempts`` of a
    ``TARGET_BLOCKED`` error): the engine, whether through a proxy (never which), the answer."""

    statusCode: int
    proxy: bool
    waitedForChallenge: bool
    retryAfterMs: int
    error: str
    skipped: Literal["browser-disabled", "engine-fetch", "no-budget"]


class ActionOutputs(TypedDict):
    """What the ``actions`` page option produced: screenshot URLs (fetch them with
    ``client.screenshot(url)``) and each ``executeJavascript`` return as ``{type, value}``."""

    screenshots: List[str]
    javascriptReturns: List[Dict[str, Any]]


class _ChangeTrackingRequired(TypedDict):
    previousScrapeAt: Optional[str]
    changeStatus: Literal["new", "same", "changed", "removed"]
    visibility: Literal["visible", "hidden"]


class ChangeTracking(_ChangeTrackingRequired, total=False):
    """The ``changeTracking`` format: this page against the account's previous scrape of it
    (docs/change-tracking.md). ``diff`` (``{text, json}``) with ``modes: ["git-diff"]``."""

    diff: Dict[str, Any]
    json: Dict[str, Any]


class _ScrapeDataRequired(TypedDict):
    metadata: PageMetadata


class ScrapeData(_ScrapeDataRequired, total=False):
    """``metadata`` always. Without ``formats``: ``markdown``, ``html`` and ``text`` (+ ``json``
    when asked); with ``formats``: exactly the keys those formats name (``rawHtml``, ``links``,
    ``images``, ``screenshot`` — a URL for ``client.screenshot(url)`` — …). ``actions`` when
    actions ran; ``warning`` when the page was cut before conversion (its content is partial)."""

    markdown: str
    html: str
    text: str
    json: Dict[str, Any]
    rawHtml: str
    links: List[str]
    images: List[str]
    screenshot: str
    actions: ActionOutputs
    changeTracking: ChangeTracking
    summary: str
    warning: str


class ScrapeResponse(TypedDict):
    """``POST /v1/scrape``."""

    success: bool
    data: ScrapeData


# -- crawl -----------------------------------------------------------------------------------


class CrawlStartResponse(TypedDict):
    """``POST /v1/crawl`` (202): ``url`` is the normalised start URL."""

    success: bool
    id: str
    url: str


class _CrawlPageRequired(TypedDict):
    url: str
    metadata: PageMetadata


class CrawlPage(_CrawlPageRequired, total=False):
    """A crawled page: ``url``, ``metadata``; ``markdown`` plus ``html``/``text``/``json`` per
    format, or exactly what ``scrape_options["formats"]`` names; ``warning`` when the page was cut
    by an input cap (the content is partial)."""

    markdown: str
    html: str
    text: str
    json: Dict[str, Any]
    rawHtml: str
    links: List[str]
    images: List[str]
    screenshot: str
    actions: ActionOutputs
    changeTracking: ChangeTracking
    summary: str
    warning: str


class _CrawlFailedPageRequired(TypedDict):
    url: str
    error: str
    code: str


class CrawlFailedPage(_CrawlFailedPageRequired, total=False):
    """A page that failed; ``statusCode`` for HTTP errors of the target."""

    statusCode: int


class _CrawlSummaryRequired(TypedDict):
    success: bool
    id: str
    status: CrawlStatusValue
    url: str
    total: int
    completed: int
    failed: int
    creditsUsed: int


class CrawlSummary(_CrawlSummaryRequired, total=False):
    """A crawl's status without pages (``DELETE /v1/crawl/:id``).

    ``stopReason`` once terminal; ``error`` on failed crawls.
    """

    stopReason: StopReason
    error: str


class _CrawlStatusRequired(CrawlSummary):
    pages: List[CrawlPage]
    failedPages: List[CrawlFailedPage]


class CrawlStatus(_CrawlStatusRequired, total=False):
    """``GET /v1/crawl/:id``: the status with one page of ``pages`` and ``failedPages``;
    ``next`` while more remain (never in what ``crawl_and_wait`` returns: it has them all);
    ``removed`` on change-tracking crawls once done (docs/change-tracking.md)."""

    removed: List[str]
    next: str


class CrawlProgress(TypedDict):
    """What ``on_progress`` receives after every poll of ``crawl_and_wait``."""

    status: CrawlStatusValue
    total: int
    completed: int
    failed: int


# -- map / search / extract --------------------------------------------------------------------


class _MapResponseRequired(TypedDict):
    success: bool
    links: List[str]
    total: int


class _MapPageRequired(TypedDict):
    url: str


class MapPage(_MapPageRequired, total=False):
    """A map link with its page's title and description, when the map fetched that page."""

    title: str
    description: str


class MapResponse(_MapResponseRequired, total=False):
    """``POST /v1/map``: not wrapped in ``data``; ``total`` is ``len(links)``.

    ``warning`` is present when the start page failed (or was not HTML) but sitemaps or links
    still gave URLs. ``pages`` (with ``link_metadata=True``) lists the links in the same order
    with their title and description where known.
    """

    pages: List[MapPage]
    warning: str


class _SearchResultRequired(TypedDict):
    url: str
    title: str
    description: str


class SearchResult(_SearchResultRequired, total=False):
    """A search hit.

    Scraped: ``markdown`` and ``metadata`` too (+ ``html`` / ``text`` / ``json`` per format). A
    page that failed to scrape while the call succeeded has ``markdown: None`` plus ``error``
    and ``code``. With ``scrape=False``: ``url``, ``title``, ``description`` only.
    ``changeTracking`` when the search asked for it (docs/change-tracking.md).
    """

    markdown: Optional[str]
    metadata: PageMetadata
    html: str
    text: str
    json: Dict[str, Any]
    changeTracking: ChangeTracking
    summary: str
    error: str
    code: str


class SearchResponse(TypedDict):
    """``POST /v1/search``: results in the provider's order; ``creditsUsed`` is what it cost."""

    success: bool
    data: List[SearchResult]
    creditsUsed: int


class ExtractUsage(TypedDict):
    """What one extraction used: model tokens (``estimated`` when the model server reported none
    and they are characters / 4), model calls (chunks, repair turns, retries, the settling call), chunks read and
    chunks left out because they failed. Credits are always 5."""

    inputTokens: int
    outputTokens: int
    modelCalls: int
    chunks: int
    failedChunks: int
    estimated: bool


class _ExtractResponseRequired(TypedDict):
    success: bool
    data: Dict[str, Any]
    usage: ExtractUsage
    truncated: bool


class ExtractResponse(_ExtractResponseRequired, total=False):
    """``POST /v1/extract``: ``data`` has exactly the schema's keys (``None`` when absent).
    ``chunks``: how many parts of a page longer than the model's input budget were read.
    ``truncated``: part of the page was never read (past ``EXTRACT_MAX_CHUNKS``); ``warning``
    says so, or that chunks failed and their part of the page is missing from ``data``."""

    chunks: int
    warning: str


# -- monitors ----------------------------------------------------------------------------------


class _MonitorRequired(TypedDict):
    id: str
    url: str
    interval: MonitorIntervalValue
    status: MonitorStatusValue
    createdAt: str


class Monitor(_MonitorRequired, total=False):
    """A monitor as created (``POST /v1/monitor``); ``webhookUrl``, ``ignoreText``, ``threshold``
    and ``goal`` only when set; ``cron`` and ``timezone`` for a cron schedule (``interval`` is
    then ``"cron"``)."""

    cron: str
    timezone: str
    webhookUrl: str
    ignoreText: List[str]
    threshold: float
    goal: str
    webhookFormat: WebhookFormat


class MonitorSummary(Monitor):
    """A monitor as listed and as deleted (``nextCheckAt`` is ``None`` while paused or cancelled)."""

    pausedBy: Optional[Literal["user", "credits"]]
    lastCheckAt: Optional[str]
    nextCheckAt: Optional[str]


class MonitorDiff(TypedDict, total=False):
    """The lines added and removed (cleaned markdown, ignored lines left out) and a unified diff;
    ``truncated`` (change records only) when the bounds cut it."""

    added: List[str]
    removed: List[str]
    text: str
    truncated: bool


class Judgement(TypedDict):
    """The goal's judge on one change."""

    relevant: bool
    reason: str


class _MonitorChangeRequired(TypedDict):
    id: str
    detectedAt: str
    hash: str
    snapshot: str
    previousSnapshot: Optional[str]
    diff: Optional[MonitorDiff]


class MonitorChange(_MonitorChangeRequired, total=False):
    """A detected change; ``judgement`` when the monitor has a goal."""

    judgement: Judgement


class _MonitorCheckRequired(TypedDict):
    checkedAt: str
    changed: bool


class MonitorCheck(_MonitorCheckRequired, total=False):
    """A check: ``hash`` when it succeeded, ``error`` and ``code`` when it failed, ``judgement``
    when the goal's judge saw its change (a change judged irrelevant is kept only here)."""

    hash: str
    error: str
    code: str
    judgement: Judgement


class IrrelevantChange(TypedDict):
    """A check whose change the goal's judge found irrelevant (``judgement.relevant`` is false)."""

    checkedAt: str
    judgement: Judgement


class WebhookDelivery(TypedDict):
    """One webhook attempt: ``statusCode`` is ``None`` when no answer came; ``error`` says why
    it failed (``None`` on success)."""

    changeId: str
    url: str
    attemptedAt: str
    statusCode: Optional[int]
    durationMs: Optional[int]
    error: Optional[str]


class MonitorDetail(MonitorSummary):
    """A monitor with its history, newest first."""

    checkCount: int
    changes: List[MonitorChange]
    checks: List[MonitorCheck]
    irrelevantChanges: List[IrrelevantChange]
    webhookDeliveries: List[WebhookDelivery]


class MonitorCreateResponse(TypedDict):
    """``POST /v1/monitor`` (201)."""

    success: bool
    data: Monitor


class MonitorResponse(TypedDict):
    """``DELETE /v1/monitor/:id``."""

    success: bool
    data: MonitorSummary


class _MonitorListRequired(TypedDict):
    success: bool
    total: int
    data: List[MonitorSummary]


class MonitorListResponse(_MonitorListRequired, total=False):
    """``GET /v1/monitor``: newest first; ``next`` while more remain."""

    next: str


class MonitorDetailResponse(TypedDict):
    """``GET /v1/monitor/:id``."""

    success: bool
    data: MonitorDetail


# -- batch scrape ------------------------------------------------------------------------------


class _BatchItemRequired(TypedDict):
    url: str


class BatchItem(_BatchItemRequired, total=False):
    """An item to scrape; ``id`` (yours) is echoed on its result."""

    id: str


class BatchStartResponse(TypedDict):
    """``POST /v1/batch/scrape`` (202)."""

    success: bool
    id: str
    total: int


class _BatchResultRequired(TypedDict):
    url: str
    status: Literal["done", "failed"]


class BatchResult(_BatchResultRequired, total=False):
    """A finished item: ``data`` when done, ``error`` and ``code`` when failed; ``id`` if given."""

    id: str
    data: ScrapeData
    error: str
    code: str


class _BatchStatusRequired(TypedDict):
    success: bool
    id: str
    status: BatchStatusValue
    total: int
    completed: int
    failed: int
    creditsUsed: int
    results: List[BatchResult]


class BatchStatus(_BatchStatusRequired, total=False):
    """``GET /v1/batch/scrape/:id``: finished ``results`` in submission order; ``next`` while
    more remain (never in what ``batch_scrape_and_wait`` returns: it has them all)."""

    next: str


class BatchCancelResponse(TypedDict):
    """``DELETE /v1/batch/scrape/:id``: the batch's counts after the cancel (no ``results``) and
    ``cancelled``, how many unfinished items it failed with code ``CANCELLED`` and refunded."""

    success: bool
    id: str
    status: BatchStatusValue
    total: int
    completed: int
    failed: int
    creditsUsed: int
    cancelled: int


class BatchProgress(TypedDict):
    """What ``on_progress`` receives after every poll of ``batch_scrape_and_wait``."""

    status: BatchStatusValue
    total: int
    completed: int
    failed: int


# -- webhooks ----------------------------------------------------------------------------------


class WebhookSecret(TypedDict):
    secret: str


class WebhookSecretResponse(TypedDict):
    """``GET /v1/webhook/secret``: the key of the ``X-Signature`` HMAC of webhook deliveries."""

    success: bool
    data: WebhookSecret


# -- account (GET /v1/account, /v1/usage, /v1/ledger, /v1/keys; free) ---------------------------


class AccountPlan(TypedDict):
    id: str
    name: str
    monthlyCredits: int
    """0 = custom (enterprise)."""
    priceUsd: Optional[float]
    """``None`` = custom pricing."""


class RateLimit(TypedDict):
    limit: int
    """Requests per window for this key."""
    remaining: int
    """Left in the current window, the ``account()`` call itself counted."""
    windowSeconds: int
    resetsAt: str


class Account(TypedDict):
    accountId: str
    name: Optional[str]
    createdAt: str
    balance: int
    plan: AccountPlan
    usedLast30Days: int
    """Equals ``usage(days=30)["data"]["totals"]["total"]``."""
    rateLimit: RateLimit


class AccountResponse(TypedDict):
    """``GET /v1/account``."""

    success: bool
    data: Account


class UsageTotals(TypedDict):
    """Net credits (charges minus refunds) per operation, and their ``total``."""

    scrape: int
    batch: int
    crawl: int
    map: int
    search: int
    extract: int
    monitor: int
    total: int


class UsageDay(UsageTotals):
    date: str
    """UTC day, ``YYYY-MM-DD``."""


Usage = TypedDict(
    "Usage",
    {"from": str, "to": str, "operations": List[str], "days": List[UsageDay], "totals": UsageTotals},
)
"""``from`` (start of the first UTC day) is a Python keyword, hence the functional syntax."""


class UsageResponse(TypedDict):
    """``GET /v1/usage``: ``days`` oldest first, today last, days without usage included."""

    success: bool
    data: Usage


class LedgerEntry(TypedDict):
    id: str
    """Row id (digits): the ``cursor`` of the next page."""
    createdAt: str
    reason: str
    amount: int
    """Positive: credit; negative: debit."""
    reference: Optional[str]
    balanceAfter: int


class _LedgerResponseRequired(TypedDict):
    success: bool
    total: int
    data: List[LedgerEntry]


class LedgerResponse(_LedgerResponseRequired, total=False):
    """``GET /v1/ledger``: newest first; ``next`` (the following page's path) unless last."""

    next: str


class ApiKeyInfo(TypedDict):
    id: str
    prefix: str
    name: Optional[str]
    createdAt: str
    lastUsedAt: Optional[str]
    revokedAt: Optional[str]
    current: bool
    """True for the key this client uses."""
    dailyCreditLimit: Optional[int]
    """Credits per UTC day; None = no limit."""
    monthlyCreditLimit: Optional[int]
    """Credits per UTC calendar month; None = no limit."""
    spentToday: int
    spentThisMonth: int
    dayResetsAt: str
    """Next 00:00 UTC."""
    monthResetsAt: str
    """The 1st of next month, 00:00 UTC."""


class KeyListResponse(TypedDict):
    """``GET /v1/keys``: oldest first, revoked keys included."""

    success: bool
    data: List[ApiKeyInfo]


class CreatedKey(TypedDict):
    id: str
    key: str
    """The full key: shown this once."""
    prefix: str
    name: Optional[str]
    createdAt: str
    dailyCreditLimit: Optional[int]
    monthlyCreditLimit: Optional[int]


class KeyCreateResponse(TypedDict):
    """``POST /v1/keys`` (201)."""

    success: bool
    data: CreatedKey


class KeyUpdateResponse(TypedDict):
    """``PATCH /v1/keys/:id``: the key as ``list_keys`` shows it."""

    success: bool
    data: ApiKeyInfo


class RevokedKey(TypedDict):
    id: str
    revokedAt: str


class KeyRevokeResponse(TypedDict):
    """``DELETE /v1/keys/:id``."""

    success: bool
    data: RevokedKey


# -- job listings (GET /v1/batch/scrape, /v1/crawl and their results; free) --------------------


class BatchSummary(TypedDict):
    id: str
    status: BatchStatusValue
    total: int
    completed: int
    failed: int
    creditsUsed: int
    createdAt: str
    finishedAt: Optional[str]


class _BatchListRequired(TypedDict):
    success: bool
    total: int
    data: List[BatchSummary]


class BatchListResponse(_BatchListRequired, total=False):
    """``GET /v1/batch/scrape``: newest first; ``next`` while more remain."""

    next: str


class BatchResultRow(TypedDict):
    itemId: str
    position: int
    title: Optional[str]
    url: str
    status: str
    """``queued``, ``running``, ``done`` or ``failed``."""
    error: Optional[str]
    code: Optional[str]


class _BatchResultsRequired(TypedDict):
    success: bool
    total: int
    data: List[BatchResultRow]


class BatchResultsResponse(_BatchResultsRequired, total=False):
    """``GET /v1/batch/scrape/:id/results``: items by position; ``next`` while more remain."""

    next: str


class BatchResultDetail(TypedDict):
    itemId: str
    position: int
    url: str
    status: str
    error: Optional[str]
    code: Optional[str]
    document: Optional[Dict[str, Any]]
    """The stored document (markdown, metadata, …); ``None`` unless done."""


class BatchResultResponse(TypedDict):
    """``GET /v1/batch/scrape/:id/results/:itemId``."""

    success: bool
    data: BatchResultDetail


class CrawlListItem(TypedDict):
    """A crawl of ``GET /v1/crawl`` (``CrawlSummary`` in the Node client; here that name is the
    status without pages)."""

    id: str
    url: str
    status: CrawlStatusValue
    stopReason: Optional[str]
    discovered: int
    completed: int
    failed: int
    creditsUsed: int
    createdAt: str
    finishedAt: Optional[str]


class _CrawlListRequired(TypedDict):
    success: bool
    total: int
    data: List[CrawlListItem]


class CrawlListResponse(_CrawlListRequired, total=False):
    """``GET /v1/crawl``: newest first; ``next`` while more remain."""

    next: str


class CrawlResultRow(TypedDict):
    pageId: str
    depth: int
    statusCode: Optional[int]
    title: Optional[str]
    url: str
    status: str
    """``queued``, ``running``, ``done``, ``failed``, ``skipped`` or ``duplicate``."""
    error: Optional[str]
    code: Optional[str]


class _CrawlResultsRequired(TypedDict):
    success: bool
    total: int
    data: List[CrawlResultRow]


class CrawlResultsResponse(_CrawlResultsRequired, total=False):
    """``GET /v1/crawl/:id/results``: the frontier in discovery order; ``next`` while more remain."""

    next: str


class CrawlResultDetail(TypedDict):
    pageId: str
    depth: int
    statusCode: Optional[int]
    url: str
    status: str
    error: Optional[str]
    code: Optional[str]
    document: Optional[Dict[str, Any]]
    """The stored document (markdown, metadata, …); ``None`` unless done."""


class CrawlResultResponse(TypedDict):
    """``GET /v1/crawl/:id/results/:pageId``."""

    success: bool
    data: CrawlResultDetail


# -- callbacks ---------------------------------------------------------------------------------

CrawlProgressCallback = Callable[[CrawlProgress], object]
"""``on_progress`` of ``crawl_and_wait``; the async client awaits it when it returns an awaitable."""

BatchProgressCallback = Callable[[BatchProgress], object]
"""``on_progress`` of ``batch_scrape_and_wait``; the async client awaits an awaitable result."""


class CreditsInfo(TypedDict):
    """What a billable call cost: its ``X-Credits-Used`` / ``X-Credits-Remaining`` headers
    (``last_credits`` of the clients)."""

    used: int
    """Credits the call kept after refunds (a crawl status: what the crawl has cost so far)."""
    remaining: int
    """The account's balance right after the call."""


class CapabilitiesResponse(TypedDict):
    """``GET /v1/capabilities``: ``data`` holds ``engines``, ``documents``, ``extract``, ``search``,
    ``proxies``, ``formats``, ``pageOptions``, ``firecrawl``, ``credits`` and ``limits`` (see the API
    guide, "Capabilities"; the Node client's ``Capabilities`` type spells every field)."""

    success: bool
    data: Dict[str, Any]
