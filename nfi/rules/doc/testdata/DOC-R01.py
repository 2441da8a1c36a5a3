# want:1 "DOC-R01"
#!/usr/bin/env python
# -*- coding: utf-8 -*-
# A comment is not a docstring, and the string below comes after an import.
import os

"""Not the module docstring: it is not the first statement."""

ROOT = os.getcwd()
