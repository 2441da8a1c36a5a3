import pytest

from jobs.retry import run_with_retry


class Flaky:
    def __init__(self, failures, exc=TimeoutError):
        self.failures, self.exc, self.calls = failures, exc, 0

    def __call__(self):
        self.calls += 1
        if self.calls <= self.failures:
            raise self.exc("boom")
        return "done"


def test_succeeds_after_transient_failures():
    job = Flaky(2)
    assert run_with_retry(job, attempts=3) == "done"
    assert job.calls == 3


def test_gives_up():
    job = Flaky(5, ConnectionError)
    with pytest.raises(Exception, match="giving up after 2 attempts"):
        run_with_retry(job, attempts=2)
    assert job.calls == 2


def test_programming_errors_propagate_and_cleanup_runs():
    calls = []
    with pytest.raises(KeyError):
        run_with_retry(Flaky(1, KeyError), cleanup=lambda: calls.append(1))
    assert calls == [1]


def test_failing_cleanup_does_not_mask_result():
    def bad_cleanup():
        raise RuntimeError("cleanup")
    assert run_with_retry(Flaky(0), cleanup=bad_cleanup) == "done"
