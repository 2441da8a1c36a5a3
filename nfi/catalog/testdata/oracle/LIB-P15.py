# --- datetime.datetime.utcnow()
import datetime

x = datetime.datetime.utcnow()
# --- from datetime import datetime; utcnow
from datetime import datetime

x = datetime.utcnow()
# --- utcfromtimestamp
from datetime import datetime

x = datetime.utcfromtimestamp(0)
# --- datetime.datetime.utcfromtimestamp
import datetime

x = datetime.datetime.utcfromtimestamp(0)
# --- aliased import
from datetime import datetime as dt

x = dt.utcnow()
# --- module alias
import datetime as d

x = d.datetime.utcnow()
# --- in a function
from datetime import datetime


def now():
    return datetime.utcnow()
# --- in a default
from datetime import datetime


def f(t=datetime.utcnow()):
    return t
# --- in a lambda
from datetime import datetime

F = lambda: datetime.utcnow()
# --- as an argument
from datetime import datetime

print(datetime.utcnow())
# --- utcfromtimestamp with a keyword
from datetime import datetime

x = datetime.utcfromtimestamp(t=0)
# --- in a comprehension
from datetime import datetime

x = [datetime.utcnow() for _ in range(2)]
# --- chained attribute
from datetime import datetime

x = datetime.utcnow().isoformat()
# --- in a class body
from datetime import datetime


class C:
    t = datetime.utcnow()
# --- now(tz) passes
from datetime import datetime, timezone

x = datetime.now(timezone.utc)
# --- fromtimestamp(tz) passes
from datetime import datetime, timezone

x = datetime.fromtimestamp(0, tz=timezone.utc)
# --- a local utcnow passes
class D:
    @staticmethod
    def utcnow():
        return 1


x = D.utcnow()
# --- the attribute without a call passes
from datetime import datetime

f = datetime.utcnow
