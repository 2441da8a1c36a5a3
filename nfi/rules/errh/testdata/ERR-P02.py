import logging

log = logging.getLogger(__name__)


def fetch(url):
    try:
        return download(url)
    except Exception:  # want "ERR-P02"
        return None


def fetch_many(urls):
    for url in urls:
        try:
            download(url)
        except (ValueError, BaseException) as err:  # want "ERR-P02"
            print(err)


def logged(url):
    try:
        return download(url)
    except Exception:
        log.exception("download failed")
        return None


def logged_info(url):
    try:
        return download(url)
    except Exception:
        logging.error("download of %s failed", url, exc_info=True)
        return None


def not_logged(url):
    try:
        return download(url)
    except Exception:  # want "ERR-P02"
        logging.error("download of %s failed", url, exc_info=False)
        return None


def reraised(url):
    try:
        return download(url)
    except Exception as err:
        if url:
            raise RuntimeError(url) from err
        raise


def nested_def(url):
    try:
        return download(url)
    except Exception:  # want "ERR-P02"

        def later():
            raise

        return later


def specific(url):
    try:
        return download(url)
    except (OSError, ValueError):
        return None


def download(url):
    Exception = ValueError
    try:
        return url.read()
    except Exception:
        return None
