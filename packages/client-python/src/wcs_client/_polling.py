"""The polling helpers (``crawl_and_wait``, ``batch_scrape_and_wait``) as flows both clients run."""

from __future__ import annotations

import time
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Tuple
from urllib.parse import parse_qs, urlsplit

from . import _endpoints as endpoints
from ._errors import ServiceError
from ._http import ApiRequest, Config, Flow, Notify, Sleep, call, is_number

CRAWL_TERMINAL = frozenset({"done", "failed"})
BATCH_TERMINAL = frozenset({"done"})


def check_polling(poll_interval: float, timeout: float) -> None:
    for name, value in (("poll_interval", poll_interval), ("timeout", timeout)):
        if not is_number(value) or value < 0:
            raise ValueError(f"{name} must be a number of seconds >= 0, got {value!r}")


def progress_of(status: Dict[str, Any]) -> Dict[str, Any]:
    """The ``on_progress`` payload: ``{status, total, completed, failed}``."""
    return {
        "status": status.get("status"),
        "total": status.get("total", 0),
        "completed": status.get("completed", 0),
        "failed": status.get("failed", 0),
    }


def next_page(body: Dict[str, Any]) -> Optional[Tuple[int, int]]:
    """``(skip, limit)`` of the page ``body["next"]`` links to, or ``None`` on the last page."""
    link = body.get("next")
    if not isinstance(link, str) or not link:
        return None
    query = parse_qs(urlsplit(link).query)
    try:
        return int(query["skip"][0]), int(query["limit"][0])
    except (KeyError, IndexError, ValueError):
        return None


def _wait_for(
    kind: str,
    job_id: str,
    status_request: Callable[..., ApiRequest],
    terminal: FrozenSet[str],
    lists: Tuple[str, ...],
    config: Config,
    deadline: float,
    poll_interval: float,
    timeout: float,
    on_progress: Optional[Callable[[Any], object]],
    status_method: str,
) -> Flow[Dict[str, Any]]:
    """Polls until terminal, then follows ``next`` and returns the status with every page."""
    while True:
        status: Dict[str, Any] = yield from call(status_request(job_id, skip=None, limit=None), config)
        if on_progress is not None:
            yield Notify(on_progress, progress_of(status))
        if status.get("status") in terminal:
            break
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise ServiceError(
                f"{kind} {job_id} not finished after {timeout:g} s; it keeps running, "
                f"poll it with {status_method}",
                status=0,
                code="CLIENT_TIMEOUT",
                details={"id": job_id, "status": status.get("status")},
            )
        yield Sleep(min(poll_interval, remaining))

    collected: Dict[str, List[Any]] = {key: list(status.get(key) or []) for key in lists}
    page = status
    last_skip = 0
    while True:
        link = next_page(page)
        if link is None or link[0] <= last_skip:
            break
        last_skip, limit = link
        page = yield from call(status_request(job_id, skip=last_skip, limit=limit), config)
        for key in lists:
            collected[key].extend(page.get(key) or [])
    final = dict(status)
    final.pop("next", None)
    final.update(collected)
    return final


def crawl_and_wait(
    start: ApiRequest,
    config: Config,
    *,
    poll_interval: float,
    timeout: float,
    on_progress: Optional[Callable[[Any], object]],
) -> Flow[Dict[str, Any]]:
    """Starts a crawl, polls until ``done`` or ``failed`` (a failed crawl is returned, not
    raised) and returns the final status with all ``pages`` and ``failedPages``."""
    check_polling(poll_interval, timeout)
    deadline = time.monotonic() + timeout
    started = yield from call(start, config)
    return (
        yield from _wait_for(
            "crawl",
            str(started["id"]),
            endpoints.get_crawl_status,
            CRAWL_TERMINAL,
            ("pages", "failedPages"),
            config,
            deadline,
            poll_interval,
            timeout,
            on_progress,
            "get_crawl_status",
        )
    )


def batch_scrape_and_wait(
    start: ApiRequest,
    config: Config,
    *,
    poll_interval: float,
    timeout: float,
    on_progress: Optional[Callable[[Any], object]],
) -> Flow[Dict[str, Any]]:
    """Starts a batch, polls until ``done`` and returns the final poll with all ``results``."""
    check_polling(poll_interval, timeout)
    deadline = time.monotonic() + timeout
    started = yield from call(start, config)
    return (
        yield from _wait_for(
            "batch scrape",
            str(started["id"]),
            endpoints.get_batch_scrape_status,
            BATCH_TERMINAL,
            ("results",),
            config,
            deadline,
            poll_interval,
            timeout,
            on_progress,
            "get_batch_scrape_status",
        )
    )
