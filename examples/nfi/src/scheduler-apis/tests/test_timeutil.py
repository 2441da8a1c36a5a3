import asyncio
import datetime

from scheduler import timeutil


def test_times_are_aware_utc():
    assert timeutil.now_utc().tzinfo == datetime.timezone.utc
    assert timeutil.from_epoch(0).isoformat() == "1970-01-01T00:00:00+00:00"


def test_due_jobs():
    sched = {f"job{i:02d}": float(i) for i in range(15)}
    assert timeutil.due_jobs(sched, 2.5) == ["job00", "job01", "job02"]
    assert len(timeutil.due_jobs(sched, 100)) == 15


def test_split_interval():
    assert timeutil.split_interval(0, 10, 2) == [(0, 5), (5, 10)]


def test_run_all():
    async def double(x):
        await asyncio.sleep(0)
        return 2 * x
    assert timeutil.run_all([double(1), double(2)]) == [2, 4]
