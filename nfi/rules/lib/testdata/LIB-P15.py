import datetime
from datetime import datetime as dt, timezone


def stamps(ts):
    a = datetime.datetime.utcnow()  # want "LIB-P15"
    b = dt.utcfromtimestamp(ts)  # want "LIB-P15"
    c = dt.utcnow().isoformat()  # want "LIB-P15"
    return a, b, c


def modern(ts):
    now = dt.now(timezone.utc)
    later = dt.fromtimestamp(ts, tz=timezone.utc)
    factory = dt.utcnow
    return now, later, factory
