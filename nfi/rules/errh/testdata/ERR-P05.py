import logging


def run(job):
    try:
        job()
    except ValueError as err:
        logging.error("failed: %s", err)
        raise err  # want "ERR-P05"
    except KeyError as err:
        if job:
            raise err  # want "ERR-P05"
        raise
    except TypeError as err:
        raise err from None
    except OSError as err:
        raise RuntimeError("wrapped") from err
    except LookupError as err:
        other = err
        raise other


def nested(job):
    try:
        job()
    except ValueError as err:
        try:
            job.close()
            if job.strict:
                raise err  # want "ERR-P05"
            raise err
        except OSError:
            raise err
        finally:
            for _ in job:
                raise err  # want "ERR-P05"

        def later():
            raise err  # want "ERR-P05"

        return later
