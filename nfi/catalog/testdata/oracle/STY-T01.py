# --- issue #18: comment ending in # noqa: E501, short without it
# word word word word word word word word word word word word word word word word word word  # noqa: E501
# --- comment ending in # noqa: E501, still too long without it
# word word word word word word word word word word word word word word word word word word word word word word word word  # noqa: E501
# --- comment ending in # type: ignore
x = 1  # word word word word word word word word word word word word word word word word word  # type: ignore[attr]
# --- comment with the pragma in the middle
x = 1  # word word word word word word word word word word word word word word word # noqa: E501 word word word
# --- pragma after a second hash without space
# word word word word word word word word word word word word word word word word word word wordabc#noqa
# --- NOSEC is not a pragma (case-sensitive)
# word word word word word word word word word word word word word word word word word word word # NOSEC
# --- noqa in any case
# word word word word word word word word word word word word word word word word word word word # NoQA
# --- a non-pragma comment after the text
# word word word word word word word word word word word word word word word word word word word # see below
# --- pragma comment then non-pragma text
# word word word word word word word word word word word word word word word word word word word # pylint: disable=foo
# --- ty and pyrefly pragmas
y = 2  # word word word word word word word word word word word word word word word word # ty: ignore
z = 3  # word word word word word word word word word word word word word word word word # pyrefly: ignore
# --- code line too long
VALUE = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39]
# --- code line at exactly 100 columns
V = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'
# --- code line at 101 columns
V = 'a b aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'
# --- one long chunk is exempt
#xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
# --- URL at the end starting before the limit
# see https://example.com/pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp
# --- URL starting after the limit
# word word word word word word word word word word word word word word word word word word word word https://example.com/x
# --- SPDX header
# SPDX-License-Identifier: Apache-2.0 OR Apache-2.0 OR Apache-2.0 OR Apache-2.0 OR Apache-2.0 OR Apache-2.0 OR Apache-2.0 OR Apache-2.0 OR Apache-2.0 OR Apache-2.0
# --- wide characters count twice
S = '全全全全全全全全全全全全全全全全全全全全全全全全全全全全全全全全全全全全全全全全 x'
# --- combining marks count zero
S = 'éééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé x'
# --- tabs advance to the next multiple of 4
if True:
	x = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'
# --- string over several lines
S = """
word word word word word word word word word word word word word word word word word word word word word word word word word
"""
# --- docstring line
def f():
    """word word word word word word word word word word word word word word word word word word word word word word."""
# --- comment after code, pragma stripped, still long
VALUE = 'a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a '  # noqa: E501
# --- comment after code, pragma stripped, fits
VALUE = 'a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a '  # noqa: E501
