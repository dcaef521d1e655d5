"""Request builders: Python keyword arguments -> the API's paths, query strings and bodies.

Shared by both clients. Only what the caller passed is sent (``None`` = not passed), under the
API's field names (``only_main_content`` -> ``onlyMainContent``; map keeps ``max_urls`` and
search keeps ``num_results``, which is how those endpoints spell them). Page options (README
"Page options") are built once by ``_page_options.page_options`` and spread into each body.
"""

from __future__ import annotations

import collections.abc
import json as _json
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union
from urllib.parse import urlsplit

from ._http import ApiRequest, compact, path_id
from ._page_options import crawl_scrape_options, no_formats, strings
from ._types import BatchItem

UrlsOrItems = Union[Sequence[str], Sequence[BatchItem]]
"""``urls`` of the batch methods: URLs, or items (``{"id"?, "url"}``) which are sent as ``items``."""
Items = Sequence[Union[BatchItem, Mapping[str, Any]]]


def scrape(
    url: str,
    *,
    format: Optional[str],
    only_main_content: Optional[bool],
    engine: Optional[str],
    wait_for: Optional[int],
    timeout_ms: Optional[int],
    page: Optional[Dict[str, Any]] = None,
) -> ApiRequest:
    return ApiRequest(
        "POST",
        "/v1/scrape",
        json=compact(
            url=url,
            format=format,
            onlyMainContent=only_main_content,
            engine=engine,
            waitFor=wait_for,
            timeout=timeout_ms,
            **(page or {}),
        ),
    )


def parse(
    file: bytes,
    *,
    format: Optional[str],
    formats: Optional[Sequence[str]],
    only_main_content: Optional[bool],
    include_tags: Optional[Sequence[str]],
    exclude_tags: Optional[Sequence[str]],
    timeout_ms: Optional[int],
    filename: Optional[str],
) -> ApiRequest:
    """The file as the raw body, its options in the query string (lists of selectors as JSON
    arrays: a selector may hold a comma)."""
    if not isinstance(file, (bytes, bytearray, memoryview)):
        raise ValueError(f"file must be bytes, got {type(file).__name__}")
    listed = strings("formats", formats)
    include = strings("include_tags", include_tags)
    exclude = strings("exclude_tags", exclude_tags)
    return ApiRequest(
        "POST",
        "/v1/parse",
        params=compact(
            format=format,
            formats=",".join(listed) if listed is not None else None,
            onlyMainContent=None if only_main_content is None else str(bool(only_main_content)).lower(),
            includeTags=_json.dumps(include) if include is not None else None,
            excludeTags=_json.dumps(exclude) if exclude is not None else None,
            timeout=timeout_ms,
            filename=filename,
        ),
        content=bytes(file),
    )


def screenshot(url: str, base_url: str) -> ApiRequest:
    """``GET`` a screenshot URL (``data["screenshot"]``, ``data["actions"]["screenshots"]``) under
    the client's key: only a URL under the client's own base URL, so the key never goes elsewhere."""
    if not isinstance(url, str) or not url:
        raise ValueError(f"screenshot url must be a non-empty string, got {url!r}")
    base, target = urlsplit(base_url), urlsplit(url)
    prefix = base.path.rstrip("/")
    same_origin = (target.scheme, target.netloc.lower()) == (base.scheme, base.netloc.lower())
    if not same_origin or not target.path.startswith(prefix + "/"):
        raise ValueError(
            f"screenshot url must be under the client's base URL {base_url}; refusing to send "
            f"the API key to {target.scheme}://{target.netloc}"
        )
    path = target.path[len(prefix) :] + (f"?{target.query}" if target.query else "")
    return ApiRequest("GET", path, binary=True)


def start_crawl(
    url: str,
    *,
    max_depth: Optional[int],
    max_pages: Optional[int],
    include_paths: Optional[Sequence[str]],
    exclude_paths: Optional[Sequence[str]],
    allow_subdomains: Optional[bool],
    ignore_robots_txt: Optional[bool],
    format: Optional[str],
    only_main_content: Optional[bool],
    delay_ms: Optional[int],
    scrape_options: Optional[Mapping[str, Any]] = None,
) -> ApiRequest:
    return ApiRequest(
        "POST",
        "/v1/crawl",
        json=compact(
            url=url,
            maxDepth=max_depth,
            maxPages=max_pages,
            includePaths=strings("include_paths", include_paths),
            excludePaths=strings("exclude_paths", exclude_paths),
            allowSubdomains=allow_subdomains,
            ignoreRobotsTxt=ignore_robots_txt,
            format=format,
            onlyMainContent=only_main_content,
            delayMs=delay_ms,
            scrapeOptions=crawl_scrape_options(scrape_options),
        ),
    )


def get_crawl_status(crawl_id: str, *, skip: Optional[int], limit: Optional[int]) -> ApiRequest:
    return ApiRequest("GET", f"/v1/crawl/{path_id(crawl_id)}", params=compact(skip=skip, limit=limit))


def cancel_crawl(crawl_id: str) -> ApiRequest:
    return ApiRequest("DELETE", f"/v1/crawl/{path_id(crawl_id)}")


def map(
    url: str,
    *,
    max_urls: Optional[int],
    search: Optional[str],
    include_subdomains: Optional[bool],
    ignore_sitemap: Optional[bool],
    timeout_ms: Optional[int],
    link_metadata: Optional[bool] = None,
    sitemap_only: Optional[bool] = None,
) -> ApiRequest:
    return ApiRequest(
        "POST",
        "/v1/map",
        json=compact(
            url=url,
            max_urls=max_urls,
            search=search,
            includeSubdomains=include_subdomains,
            ignoreSitemap=ignore_sitemap,
            sitemapOnly=sitemap_only,
            linkMetadata=link_metadata,
            timeout=timeout_ms,
        ),
    )


def search(
    query: str,
    *,
    num_results: Optional[int],
    country: Optional[str],
    lang: Optional[str],
    scrape: Optional[bool],
    fresh: Optional[bool],
    format: Optional[str],
    only_main_content: Optional[bool],
    timeout_ms: Optional[int],
    summary: Optional[bool] = None,
) -> ApiRequest:
    return ApiRequest(
        "POST",
        "/v1/search",
        json=compact(
            query=query,
            num_results=num_results,
            country=country,
            lang=lang,
            scrape=scrape,
            fresh=fresh,
            format=format,
            onlyMainContent=only_main_content,
            summary=summary,
            timeout=timeout_ms,
        ),
    )


def extract(
    url: str,
    *,
    schema: Optional[Dict[str, Any]],
    prompt: Optional[str],
    timeout_ms: Optional[int],
    wait_for: Optional[int] = None,
    page: Optional[Dict[str, Any]] = None,
) -> ApiRequest:
    return ApiRequest(
        "POST",
        "/v1/extract",
        json=compact(
            url=url,
            schema=schema,
            prompt=prompt,
            timeout=timeout_ms,
            waitFor=wait_for,
            **no_formats("extract", page),
        ),
    )


def create_monitor(
    url: str,
    *,
    interval: Optional[str],
    webhook_url: Optional[str],
    wait_for: Optional[int] = None,
    page: Optional[Dict[str, Any]] = None,
    cron: Optional[str] = None,
    timezone: Optional[str] = None,
    ignore_text: Optional[Sequence[str]] = None,
    threshold: Optional[float] = None,
    goal: Optional[str] = None,
    webhook_format: Optional[str] = None,
) -> ApiRequest:
    return ApiRequest(
        "POST",
        "/v1/monitor",
        json=compact(
            url=url,
            interval=interval,
            cron=cron,
            timezone=timezone,
            webhookUrl=webhook_url,
            waitFor=wait_for,
            ignoreText=list(ignore_text) if ignore_text is not None else None,
            threshold=threshold,
            goal=goal,
            webhookFormat=webhook_format,
            **no_formats("create_monitor", page),
        ),
    )


def list_monitors(*, skip: Optional[int], limit: Optional[int]) -> ApiRequest:
    return ApiRequest("GET", "/v1/monitor", params=compact(skip=skip, limit=limit))


def get_monitor(monitor_id: str) -> ApiRequest:
    return ApiRequest("GET", f"/v1/monitor/{path_id(monitor_id)}")


def delete_monitor(monitor_id: str) -> ApiRequest:
    return ApiRequest("DELETE", f"/v1/monitor/{path_id(monitor_id)}")


def start_batch_scrape(
    urls: Optional[UrlsOrItems],
    *,
    items: Optional[Items],
    format: Optional[str],
    only_main_content: Optional[bool],
    page: Optional[Dict[str, Any]] = None,
) -> ApiRequest:
    """``urls`` -> body ``urls``; ``items`` (or a ``urls`` list of dicts) -> body ``items``."""
    if isinstance(urls, (str, bytes)):
        raise TypeError("urls must be a list of URLs, not a single string")
    url_list: Optional[List[Any]] = None if urls is None else list(urls)
    if items is None and url_list and all(isinstance(u, collections.abc.Mapping) for u in url_list):
        items, url_list = url_list, None
    item_list = None if items is None else [dict(item) for item in items]
    return ApiRequest(
        "POST",
        "/v1/batch/scrape",
        json=compact(
            urls=url_list,
            items=item_list,
            format=format,
            onlyMainContent=only_main_content,
            **(page or {}),
        ),
    )


def get_batch_scrape_status(
    batch_id: str, *, skip: Optional[int], limit: Optional[int]
) -> ApiRequest:
    return ApiRequest(
        "GET", f"/v1/batch/scrape/{path_id(batch_id)}", params=compact(skip=skip, limit=limit)
    )


def cancel_batch_scrape(batch_id: str) -> ApiRequest:
    return ApiRequest("DELETE", f"/v1/batch/scrape/{path_id(batch_id)}")


def get_webhook_secret() -> ApiRequest:
    return ApiRequest("GET", "/v1/webhook/secret")


def update_monitor(monitor_id: str, **fields: Any) -> ApiRequest:
    names = {
        "interval": "interval",
        "cron": "cron",
        "timezone": "timezone",
        "webhook_url": "webhookUrl",
        "webhook_format": "webhookFormat",
        "ignore_text": "ignoreText",
        "threshold": "threshold",
        "goal": "goal",
    }
    body = {
        names[k]: (list(v) if k == "ignore_text" and v is not None else v) for k, v in fields.items() if v is not UNSET
    }
    return ApiRequest("PATCH", f"/v1/monitor/{path_id(monitor_id)}", json=body)


def pause_monitor(monitor_id: str) -> ApiRequest:
    return ApiRequest("POST", f"/v1/monitor/{path_id(monitor_id)}/pause")


def resume_monitor(monitor_id: str) -> ApiRequest:
    return ApiRequest("POST", f"/v1/monitor/{path_id(monitor_id)}/resume")


# -- account (free) ------------------------------------------------------------------------------

Reasons = Union[str, Sequence[str]]
"""``reason`` of the ledger methods: one reason, a comma list, or a list of reasons."""


def _reason(reason: Optional[Reasons]) -> Optional[str]:
    """The API's comma list (a string passes unchanged)."""
    if reason is None or isinstance(reason, str):
        return reason
    if isinstance(reason, bytes):
        raise TypeError("reason must be a string or a list of strings, not bytes")
    return ",".join(reason)


def account() -> ApiRequest:
    return ApiRequest("GET", "/v1/account")


def capabilities() -> ApiRequest:
    return ApiRequest("GET", "/v1/capabilities")


def usage(*, days: Optional[int]) -> ApiRequest:
    return ApiRequest("GET", "/v1/usage", params=compact(days=days))


def ledger(*, limit: Optional[int], cursor: Optional[str], reason: Optional[Reasons]) -> ApiRequest:
    return ApiRequest(
        "GET", "/v1/ledger", params=compact(limit=limit, cursor=cursor, reason=_reason(reason))
    )


def ledger_csv(*, reason: Optional[Reasons]) -> ApiRequest:
    return ApiRequest("GET", "/v1/ledger.csv", params=compact(reason=_reason(reason)), text=True)


def list_keys() -> ApiRequest:
    return ApiRequest("GET", "/v1/keys")


def create_key(
    *, name: Optional[str], daily_credit_limit: Optional[int], monthly_credit_limit: Optional[int]
) -> ApiRequest:
    return ApiRequest(
        "POST",
        "/v1/keys",
        json=compact(
            name=name, dailyCreditLimit=daily_credit_limit, monthlyCreditLimit=monthly_credit_limit
        ),
    )


class _Unset:
    """The default of ``update_key``'s fields: "leave as it is" (``None`` removes a limit)."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


def update_key(
    key_id: str, *, name: Any, daily_credit_limit: Any, monthly_credit_limit: Any
) -> ApiRequest:
    fields = {"name": name, "dailyCreditLimit": daily_credit_limit, "monthlyCreditLimit": monthly_credit_limit}
    body = {k: v for k, v in fields.items() if v is not UNSET}
    return ApiRequest("PATCH", f"/v1/keys/{path_id(key_id)}", json=body)


def revoke_key(key_id: str) -> ApiRequest:
    return ApiRequest("DELETE", f"/v1/keys/{path_id(key_id)}")


# -- job listings (free) ---------------------------------------------------------------------------


def list_batches(*, skip: Optional[int], limit: Optional[int]) -> ApiRequest:
    return ApiRequest("GET", "/v1/batch/scrape", params=compact(skip=skip, limit=limit))


def batch_results(batch_id: str, *, skip: Optional[int], limit: Optional[int]) -> ApiRequest:
    return ApiRequest(
        "GET", f"/v1/batch/scrape/{path_id(batch_id)}/results", params=compact(skip=skip, limit=limit)
    )


def batch_result(batch_id: str, item_id: str) -> ApiRequest:
    return ApiRequest("GET", f"/v1/batch/scrape/{path_id(batch_id)}/results/{path_id(item_id)}")


def list_crawls(*, skip: Optional[int], limit: Optional[int]) -> ApiRequest:
    return ApiRequest("GET", "/v1/crawl", params=compact(skip=skip, limit=limit))


def crawl_results(crawl_id: str, *, skip: Optional[int], limit: Optional[int]) -> ApiRequest:
    return ApiRequest(
        "GET", f"/v1/crawl/{path_id(crawl_id)}/results", params=compact(skip=skip, limit=limit)
    )


def crawl_result(crawl_id: str, page_id: str) -> ApiRequest:
    return ApiRequest("GET", f"/v1/crawl/{path_id(crawl_id)}/results/{path_id(page_id)}")
