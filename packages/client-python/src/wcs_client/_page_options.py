"""Page options (the service README's "Page options"): keyword arguments -> the API's fields.

Shared by both clients' request builders (``_endpoints.py``): the same names and checks for
scrape, batch scrape, crawl ``scrape_options``, extract and monitors.
"""

from __future__ import annotations

import collections.abc
from typing import Any, Dict, List, Mapping, Optional, Sequence

from ._http import compact
from ._types import Location, PageAction


def strings(name: str, values: Optional[Sequence[str]]) -> Optional[List[str]]:
    if values is None:
        return None
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be a list of strings, not a single string")
    return list(values)


def _mapping(name: str, value: Optional[Mapping[str, Any]]) -> Optional[Dict[str, Any]]:
    if value is None:
        return None
    if not isinstance(value, collections.abc.Mapping):
        raise TypeError(f"{name} must be a dict")
    return dict(value)


def _actions(actions: Optional[Sequence[PageAction]]) -> Optional[List[Dict[str, Any]]]:
    if actions is None:
        return None
    if isinstance(actions, (str, bytes, collections.abc.Mapping)):
        raise TypeError("actions must be a list of dicts such as {'type': 'click', 'selector': '#go'}")
    out = [_mapping("each action", a) for a in actions]
    return [a for a in out if a is not None]


def page_options(
    *,
    headers: Optional[Mapping[str, str]] = None,
    headers_scope: Optional[str] = None,
    formats: Optional[Sequence[str]] = None,
    actions: Optional[Sequence[PageAction]] = None,
    mobile: Optional[bool] = None,
    location: Optional[Location] = None,
    include_tags: Optional[Sequence[str]] = None,
    exclude_tags: Optional[Sequence[str]] = None,
    proxy: Optional[str] = None,
    max_age: Optional[int] = None,
    store_in_cache: Optional[bool] = None,
) -> Dict[str, Any]:
    """The page options the caller passed, under the API's names (``None`` = not passed)."""
    return compact(
        headers=_mapping("headers", headers),
        headersScope=headers_scope,
        formats=strings("formats", formats),
        actions=_actions(actions),
        mobile=mobile,
        location=_mapping("location", location),
        includeTags=strings("include_tags", include_tags),
        excludeTags=strings("exclude_tags", exclude_tags),
        proxy=proxy,
        maxAge=max_age,
        storeInCache=store_in_cache,
    )


_SNAKE_SCRAPE_OPTIONS = {
    "include_tags": "includeTags",
    "exclude_tags": "excludeTags",
    "max_age": "maxAge",
    "store_in_cache": "storeInCache",
    "headers_scope": "headersScope",
}


def crawl_scrape_options(options: Optional[Mapping[str, Any]]) -> Optional[Dict[str, Any]]:
    """A crawl's ``scrapeOptions``: the API's names, or the snake_case spellings of the keyword
    arguments (mapped here); anything else goes through for the server to judge (400 naming it)."""
    if options is None:
        return None
    given = _mapping("scrape_options", options) or {}
    out: Dict[str, Any] = {}
    for key, value in given.items():
        name = _SNAKE_SCRAPE_OPTIONS.get(key, key)
        if name in out:
            raise ValueError(f"scrape_options has both {key!r} and {name!r}")
        out[name] = value
    return compact(**out)


def no_formats(endpoint: str, page: Optional[Dict[str, Any]]) -> Dict[str, Any]:
    """Extract and monitors read the page: they take no ``formats`` and no ``maxAge``."""
    page = page or {}
    for name in ("formats", "maxAge"):
        if name in page:
            raise TypeError(f"{endpoint} does not take {name}")
    return page
