"""Fixtures: the live service (from the environment) and a scripted local fake of the API.

The live tests need SERVICE_BASE_URL, SERVICE_API_KEY and WCS_EXAMPLE_SITE, which
``tests/src/clients/with-client-stack.ts`` (or the jest test ``client-python.e2e.test.ts``) sets.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Deque, Dict, Iterator, List, Optional, TypeVar

import pytest

from wcs_client import ServiceClient

T = TypeVar("T")

TITLE = "Understanding Web Content Extraction"


@dataclass
class Live:
    base_url: str
    api_key: str
    site: str


@pytest.fixture(scope="session")
def live() -> Live:
    missing = [
        name
        for name in ("SERVICE_BASE_URL", "SERVICE_API_KEY", "WCS_EXAMPLE_SITE")
        if not os.environ.get(name)
    ]
    if missing:
        pytest.fail(
            f"{', '.join(missing)} not set: run the tests inside the client stack "
            "(pnpm exec tsx tests/src/clients/with-client-stack.ts -- ...)",
            pytrace=False,
        )
    return Live(
        base_url=os.environ["SERVICE_BASE_URL"],
        api_key=os.environ["SERVICE_API_KEY"],
        site=os.environ["WCS_EXAMPLE_SITE"].rstrip("/"),
    )


@pytest.fixture
def site(live: Live) -> str:
    """The fixture web site's origin, e.g. http://127.0.0.1:PORT (no trailing slash)."""
    return live.site


@pytest.fixture
def client(live: Live) -> Iterator[ServiceClient]:
    """A sync client configured from the environment (no arguments)."""
    with ServiceClient() as c:
        yield c


def wait_until(fn: Callable[[], Optional[T]], timeout: float = 20.0, interval: float = 0.2) -> T:
    """Polls ``fn`` until it returns something truthy; fails after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = fn()
        if value:
            return value
        if time.monotonic() >= deadline:
            pytest.fail(f"condition not met within {timeout} s")
        time.sleep(interval)  # polling with a deadline, not synchronisation


def closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- the fake API --------------------------------------------------------------------------------


@dataclass
class Reply:
    status: int = 200
    body: Any = None
    headers: Dict[str, str] = field(default_factory=dict)
    raw: Optional[bytes] = None
    hang: bool = False


@dataclass
class Recorded:
    method: str
    path: str
    headers: Dict[str, str]
    body: Any
    at: float


class FakeApi:
    """A local HTTP server answering scripted replies in order (then ``default``), recording
    every request. ``hang=True`` holds the answer until the test ends (for client timeouts)."""

    def __init__(self) -> None:
        self.replies: Deque[Reply] = deque()
        self.default = Reply(200, {"success": True})
        self.requests: List[Recorded] = []
        self.release = threading.Event()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                fake.requests.append(
                    Recorded(
                        method=self.command,
                        path=self.path,
                        headers={k.lower(): v for k, v in self.headers.items()},
                        body=json.loads(raw) if raw else None,
                        at=time.monotonic(),
                    )
                )
                reply = fake.replies.popleft() if fake.replies else fake.default
                if reply.hang:
                    fake.release.wait(30)
                    return
                payload = reply.raw if reply.raw is not None else json.dumps(reply.body).encode()
                self.send_response(reply.status)
                headers = {"Content-Type": "application/json", **reply.headers}
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_DELETE = _handle

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self.thread.start()

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def reply(self, status: int = 200, body: Any = None, **kwargs: Any) -> "FakeApi":
        self.replies.append(Reply(status, body if body is not None else {"success": True}, **kwargs))
        return self

    def error(self, status: int, code: str, message: str = "boom", **kwargs: Any) -> "FakeApi":
        return self.reply(status, {"success": False, "error": message, "code": code}, **kwargs)

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fake() -> Iterator[FakeApi]:
    api = FakeApi()
    try:
        yield api
    finally:
        api.close()


@pytest.fixture
def fake_client(fake: FakeApi) -> Iterator[ServiceClient]:
    with ServiceClient("test-key", fake.url, timeout=5.0) as c:
        yield c
