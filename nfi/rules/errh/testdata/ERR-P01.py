import logging

log = logging.getLogger(__name__)


def run(job):
    try:
        job()
    except:  # want "ERR-P01"
        log.warning("job failed")


def cleanup(job):
    try:
        job()
    except:
        job.close()
        raise


def conditional(job):
    try:
        job()
    except:  # want "ERR-P01"
        if job.strict:
            raise
        job.close()


def typed(job):
    try:
        job()
    except Exception:
        log.exception("job failed")
    except BaseException:
        raise
