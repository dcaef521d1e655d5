"""Executes every ```python block of the package README against the service.

``https://example.com`` becomes the fixture site (WCS_EXAMPLE_SITE); the examples construct
``ServiceClient()`` without arguments, so SERVICE_API_KEY / SERVICE_BASE_URL come from the
environment exactly as the README tells users.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import List

import pytest

from conftest import Live

README = Path(__file__).resolve().parent.parent / "README.md"
FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def python_blocks() -> List[str]:
    return FENCE.findall(README.read_text(encoding="utf-8"))


BLOCKS = python_blocks()


def _first_code_line(block: str) -> str:
    return next(
        (line for line in block.splitlines() if line.strip() and not line.startswith(("import", "from"))),
        "",
    )


def test_readme_has_examples_for_every_method() -> None:
    text = "\n".join(BLOCKS)
    methods = [
        "scrape", "start_crawl", "get_crawl_status", "cancel_crawl", "crawl_and_wait", "map", "search",
        "extract", "create_monitor", "list_monitors", "get_monitor", "delete_monitor", "start_batch_scrape",
        "get_batch_scrape_status", "cancel_batch_scrape", "batch_scrape_and_wait", "get_webhook_secret", "pause_monitor",
        "resume_monitor", "account", "usage", "ledger", "ledger_csv", "list_keys", "create_key", "revoke_key",
        "list_batches", "batch_results", "batch_result", "list_crawls", "crawl_results", "crawl_result",
        "screenshot",
    ]
    missing = [m for m in methods if f".{m}(" not in text]
    assert not missing, f"README has no python example calling {missing}"
    assert "AsyncServiceClient()" in text
    assert "ServiceClient(" in text and "api_key=" not in text  # the env fallback, as documented
    assert len(BLOCKS) >= 10


@pytest.mark.parametrize(
    "index", range(len(BLOCKS)), ids=[f"block{i}:{_first_code_line(b)[:40]}" for i, b in enumerate(BLOCKS)]
)
def test_readme_example_runs(index: int, live: Live, capsys: pytest.CaptureFixture[str]) -> None:
    code = BLOCKS[index].replace("https://example.com", live.site)
    namespace = {"__name__": f"readme_block_{index}"}
    exec(compile(code, f"{README.name}[python block {index}]", "exec"), namespace)
    printed = capsys.readouterr().out
    assert printed.strip(), f"README python block {index} printed nothing"
    print(printed)  # shown by `pytest -rA` under PASSES
