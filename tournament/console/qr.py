"""QR codes of private links, as inline SVG (segno: pure Python, no image files)."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(text: str, *, title: str = "", scale: int = 3) -> SafeString:
    """``text`` as a QR code (error correction M), an ``<svg>`` element to put in a page."""
    code = segno.make(text, error="m", micro=False)
    # segno escapes the title; the rest is its own markup.
    return mark_safe(code.svg_inline(scale=scale, title=title or None, svgclass="qr"))
