"""Task comments."""

# TODO: write the parser  # want "DOC-P02"
# todo lower case also counts  # want "DOC-P02"
x = 1  # FIXME(bob): off by one  # want "DOC-P02"
# XXX  # want "DOC-P02"
# HACK: works around a bug  # want "DOC-P02"
# note # TODO second section  # want "DOC-P02"
# this is a TODO in the middle of prose
# TODOS is another word
# mastodon is not a task
s = "TODO: strings are not comments"


def f():
    """TODO: docstrings are not scanned."""
    return x
