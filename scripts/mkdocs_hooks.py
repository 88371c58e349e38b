"""MkDocs hooks (mkdocs.yml ``hooks``): the docstrings' Sphinx roles (:class:`~a.b.C`) rendered as
Sphinx shows them (``C``; without ``~``, the whole name), since mkdocstrings leaves them as text."""

from __future__ import annotations

import re

ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|obj|exc|py:\w+):<code>(~?)([^<]*)</code>")


def on_page_content(html, page, config, files):
    return ROLE.sub(lambda m: f"<code>{m[2].rsplit('.', 1)[-1] if m[1] else m[2]}</code>", html)
