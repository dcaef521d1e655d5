"""The one exception the client raises."""

from __future__ import annotations

from typing import Any, Dict, Optional

__all__ = ["ServiceError"]


class ServiceError(Exception):
    """A failed call.

    ``status`` is the HTTP status of the response, or ``0`` when there was no HTTP response
    (client-side timeout of a request or of a polling helper, network failure, missing key).
    ``str(error)`` / ``error.message`` is the API body's ``error`` string (``"HTTP <status>"``
    when the body is not the API's error shape). ``code`` is the API body's ``code`` (for
    example ``INSUFFICIENT_CREDITS``) or, for status 0, one of ``CLIENT_TIMEOUT``,
    ``NETWORK_ERROR``, ``MISSING_API_KEY``; it is ``None`` only when a non-2xx body carried no
    code. ``details`` is the API body's ``details`` object when it sent one (the target's
    failures: :class:`~wcs_client.TargetErrorDetails`, e.g. ``{"statusCode": 404, "soft": True}``
    for a 200 "not found" page, ``{"reason": "challenge", "vendor": "cloudflare"}`` for a bot wall).
    """

    status: int
    code: Optional[str]
    details: Optional[Dict[str, Any]]
    message: str

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: Optional[str] = None,
        details: Optional[Dict[str, Any]] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.details = details

    def __repr__(self) -> str:
        return (
            f"ServiceError(status={self.status!r}, code={self.code!r}, "
            f"message={self.message!r}, details={self.details!r})"
        )

    def __reduce__(self) -> Any:
        # Keyword-only arguments: teach pickle (and multiprocessing) how to rebuild the error.
        return (_rebuild, (self.message, self.status, self.code, self.details))


def _rebuild(
    message: str, status: int, code: Optional[str], details: Optional[Dict[str, Any]]
) -> ServiceError:
    return ServiceError(message, status=status, code=code, details=details)
