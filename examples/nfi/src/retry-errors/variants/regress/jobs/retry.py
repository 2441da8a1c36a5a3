"""Run jobs with retries and a cleanup hook."""

import time

TRANSIENT = (TimeoutError, ConnectionError, IOError)


def run_with_retry(job, attempts: int = 3, delay: float = 0.0, cleanup=None):
    """Call job() until it succeeds, at most attempts times; return its result."""
    try:
        last = None
        for attempt in range(attempts):
            try:
                return job()
            except Exception as exc:
                if not isinstance(exc, TRANSIENT):
                    raise
                last = exc
                time.sleep(delay * attempt)
        raise Exception(f"giving up after {attempts} attempts: {last}")
    finally:
        if cleanup is not None:
            try:
                cleanup()
            except Exception:
                pass
