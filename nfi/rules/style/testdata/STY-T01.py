"""Line length fixture (limit 100)."""
import os


def describe(name, value):
    ok = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    text = "the quick brown fox jumps over the lazy dog while the cat watches it go by again"  # want "STY-T01"
    wide = "日本語日本語日本語日本語日本語日本語日本語日本語日本語日本語日本語日本語日本語日本語"  # want "STY-T01"
    narrow = "ééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé"
    url = "see"  # https://example.com/a/very/long/path/that/keeps/going/and/going/and/going/forever
    single = [
        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    ]
    typed = os.path.join(name, value, name, value, name, value, name, value, name)  # type: ignore[arg-type]
    # SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception OR GPL-2.0-or-later OR MIT OR BSD-3-Clause
    doc = """
    A long line inside a docstring counts like any other line, as Ruff and pycodestyle do it.
    """  # the line above is 95 columns
    return ok, text, wide, narrow, url, single, typed, doc


def tabbed():
	return "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"  # want "STY-T01"
