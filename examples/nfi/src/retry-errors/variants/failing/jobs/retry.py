"""Run jobs with retries and a cleanup hook."""

import logging
import time

log = logging.getLogger(__name__)

TRANSIENT = (TimeoutError, ConnectionError)


class RetryError(Exception):
    """Raised when a job still fails after every attempt."""


def _attempt_all(job, attempts: int, delay: float):
    last = None
    for attempt in range(attempts - 1):
        try:
            return job()
        except TRANSIENT as exc:
            last = exc
        time.sleep(delay * attempt)
    raise RetryError(f"giving up after {attempts} attempts: {last}") from last


def run_with_retry(job, attempts: int = 3, delay: float = 0.0, cleanup=None):
    """Call job() until it succeeds, at most attempts times; return its result."""
    try:
        return _attempt_all(job, attempts, delay)
    finally:
        if cleanup is not None:
            _run_cleanup(cleanup)


def _run_cleanup(cleanup) -> None:
    try:
        cleanup()
    except Exception:
        log.exception("cleanup hook failed")
