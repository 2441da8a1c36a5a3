# --- raise the caught exception by name
try:
    pass
except ValueError as e:
    raise e
# --- in a function
def f():
    try:
        return 1
    except Exception as exc:
        raise exc
# --- after logging
import logging
try:
    pass
except OSError as err:
    logging.exception('x')
    raise err
# --- in a nested if
try:
    pass
except KeyError as e:
    if e.args:
        raise e
# --- tuple of types
try:
    pass
except (KeyError, IndexError) as e:
    raise e
# --- in a loop
for i in range(3):
    try:
        pass
    except ValueError as e:
        raise e
# --- second handler
try:
    pass
except KeyError:
    pass
except ValueError as e:
    raise e
# --- in a method
class C:
    def m(self):
        try:
            pass
        except ValueError as e:
            raise e
# --- nested try
try:
    try:
        pass
    except ValueError as e:
        raise e
except Exception:
    pass
# --- in a with block
try:
    pass
except ValueError as e:
    with open('f'):
        raise e
# --- in an else branch
try:
    pass
except ValueError as e:
    if False:
        pass
    else:
        raise e
# --- bare except name
try:
    pass
except BaseException as e:
    raise e
# --- raise e from None passes
try:
    pass
except ValueError as e:
    raise e from None
# --- bare raise passes
try:
    pass
except ValueError:
    raise
# --- raising another name passes
try:
    pass
except ValueError as e:
    err = e
    raise err
# --- raise a new exception passes
try:
    pass
except ValueError as e:
    raise TypeError(str(e))
# --- raise e in a nested def passes
try:
    pass
except ValueError as e:
    def g():
        raise e
