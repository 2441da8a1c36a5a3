"""Commented-out code."""

import os

# import sys
# result = compute(x)
# print(result)
# return None
# else:
# except ValueError as exc:
# 'key': value,
# user, _ = get_or_create(
# )
# This is a (real) comment.
# Issue #999: x = 1 is not code here
# TODO(bob): x = 1
# type: ignore
# pylint: disable=invalid-name
# noqa: E501
# -*- coding: utf-8 -*-
# Note: see the docs (below)
# 1, 2, 3
# def foo():
# print x
# x = 06
# raise ValueError, "py2"
# `repr`
# Date: 2009-06-24
value = os.sep  # value = "/"  trailing comments are not checked

value = os.sep  # want:5 "DOC-P04"
value = os.sep  # want:6 "DOC-P04"
value = os.sep  # want:7 "DOC-P04"
value = os.sep  # want:8 "DOC-P04"
value = os.sep  # want:9 "DOC-P04"
value = os.sep  # want:10 "DOC-P04"
value = os.sep  # want:11 "DOC-P04"
value = os.sep  # want:12 "DOC-P04"
value = os.sep  # want:13 "DOC-P04"
