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
    except:  # want "ERR-P01"
        job.close()
        raise


def typed(job):
    try:
        job()
    except Exception:
        log.exception("job failed")
    except BaseException:
        raise
