"""Callbacks fired when a search reaches chosen nodes."""


def make_watchers(targets: list) -> dict:
    """Return a callback per target that reports reaching that target."""
    return {target: (lambda t=target: f"reached {t}") for target in targets}


def first_hit(order: list, targets: list):
    """Return the message of the first target reached in order, or None."""
    watchers = make_watchers(targets)
    for node in order:
        if node in watchers:
            return watchers[node]()
    return None


def drain(queue: list) -> int:
    """Pop every item of queue and return how many there were."""
    count = 0
    while queue:
        queue.pop()
        count += 1
    return count
