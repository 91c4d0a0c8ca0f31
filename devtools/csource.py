# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""C source without comments and strings, split by function: what the
lints of devtools (check-fastpath.py, check-layers.py, check-wake-io.py)
read of the tree (python3 standard library only).

blank() keeps every offset and line number: a comment, string or
character literal becomes spaces (its newlines and a literal's quotes
stay), so that a match in the result is a match of the same place in the
file. functions() finds the functions a file defines in DPDK style: the
name at the start of a line, the type on the line before, the body after
the parameter list.
"""

import re

IDENT = r'[A-Za-z_][A-Za-z0-9_]*'
DEF_RX = re.compile(r'^(' + IDENT + r')\(', re.M)
# A preprocessor line, with its continuations.
CPP_RX = re.compile(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', re.M)


def _spaces(text):
    return re.sub(r'[^\n]', ' ', text)


def blank(text, cpp=False):
    """text with comments, string and character literals (and with cpp,
    preprocessor lines) turned into spaces, newlines kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(_spaces(text[i:j]))
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            out.append(c + _spaces(text[i + 1:j - 1]) +
                       (c if j - 1 > i else ''))
            i = j
        else:
            out.append(c)
            i += 1
    code = ''.join(out)
    if cpp:
        code = CPP_RX.sub(lambda m: _spaces(m.group(0)), code)
    return code


def closing(code, i):
    """The index of the bracket that closes the one at code[i] ("(" or
    "{"), or the end of code if none does."""
    op = code[i]
    cl = ')' if op == '(' else '}'
    depth = 0
    for j in range(i, len(code)):
        if code[j] == op:
            depth += 1
        elif code[j] == cl:
            depth -= 1
            if depth == 0:
                return j
    return len(code)


def functions(code):
    """{name: (static, body)} of the functions blanked code defines: static
    if "static" is a word of the line before the name; body the text from
    "{" to its "}". A name defined twice (under #if) keeps the last."""
    defs = {}
    for m in DEF_RX.finditer(code):
        k = closing(code, m.end() - 1) + 1
        while k < len(code) and code[k].isspace():
            k += 1
        if k >= len(code) or code[k] != '{':
            continue
        start = code.rfind('\n', 0, m.start() - 1) + 1
        static = 'static' in code[start:m.start()].split()
        defs[m.group(1)] = (static, code[k:closing(code, k) + 1])
    return defs
