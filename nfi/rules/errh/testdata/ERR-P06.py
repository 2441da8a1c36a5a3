def first(items):
    try:
        return items[0]
    finally:
        return None  # want "ERR-P06"


def drain(queue):
    for item in queue:
        try:
            item.process()
        finally:
            if item.failed:
                continue  # want "ERR-P06"
            elif item.last:
                break  # want "ERR-P06"


def cleanup(handles):
    try:
        pass
    finally:
        for h in handles:
            if h.closed:
                continue
            if h.bad:
                break
            h.close()
        while handles:
            handles.pop()
            break

        def later():
            return handles

        later()


def loop_else(jobs):
    while jobs:
        try:
            jobs.pop()
        finally:
            for j in jobs:
                j.close()
            else:
                break  # want "ERR-P06"
