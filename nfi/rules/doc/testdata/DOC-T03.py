"""Module docstring with a line that is far too long to fit in seventy-two columns."""  # want "DOC-T03"

# A short comment.
# This standalone comment explains things in far more words than fit here.  # want "DOC-T03"
x = 1  # a trailing comment on a code line may be long without counting as a doc line at all
# https://example.com/a/very/long/url/that/cannot/be/wrapped/at/all/anywhere/ok
# see https://example.com/a/very/long/url/that/cannot/be/wrapped/at/all/anywhere
# noqa: this pragma comment line is long but it is a pragma and pragmas are exempt
# 長いコメントは全角文字で幅が二倍になるのでこの行は七十二桁を超えてしまいますよ  # want "DOC-T03"
# Short text  # noqa: E501 the rest is a pragma and removed before measuring width


def f():
    """Summary.

    A docstring line that is longer than the seventy-two column limit here.  # want "DOC-T03"
    """
    "A standalone string statement is a doc line too, even when not a docstring"  # want "DOC-T03"
    return f"an f-string expression is not a standalone string statement at all {x}"
