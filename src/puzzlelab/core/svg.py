"""The few SVG helpers the renderers share: a document builder with escaped text, and
a colour palette. Pictures are plain SVG 1.1 strings with no external references, so
the web page, a file and a test can all use them as they are."""

from __future__ import annotations

from html import escape
from typing import Iterable

__all__ = ["Svg", "PALETTE", "colour", "escape"]

# Twelve colours that stay distinct for colour-blind viewers (Paul Tol's 'muted' and
# 'bright' schemes), then grey for anything further.
PALETTE = (
    "#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377",
    "#332288", "#88ccee", "#44aa99", "#117733", "#999933", "#dd7788",
)


def colour(i: int) -> str:
    """A palette colour by index (cycling)."""
    return PALETTE[i % len(PALETTE)]


def _attrs(attrs: dict) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        if isinstance(value, float):
            value = f"{value:.3f}".rstrip("0").rstrip(".")
        parts.append(f'{name}="{escape(str(value), quote=True)}"')
    return " ".join(parts)


class Svg:
    """Collects elements and writes one SVG document.

    >>> svg = Svg(20, 10)
    >>> svg.rect(0, 0, 10, 10, fill="#fff")
    >>> svg.text(5, 5, "a<b")
    >>> '&lt;' in svg.to_string()
    True
    """

    def __init__(self, width: float, height: float, title: str = "", scale: float = 1.0, background: str | None = "#ffffff"):
        self.width, self.height, self.scale = width, height, scale
        self.parts: list[str] = []
        if title:
            self.parts.append(f"<title>{escape(title)}</title>")
        if background:
            self.rect(0, 0, width, height, fill=background)

    def element(self, tag: str, body: str | None = None, **attrs) -> None:
        attr = _attrs(attrs)
        self.parts.append(f"<{tag} {attr}/>" if body is None else f"<{tag} {attr}>{body}</{tag}>")

    def rect(self, x, y, w, h, **attrs) -> None:
        self.element("rect", x=x, y=y, width=w, height=h, **attrs)

    def line(self, x1, y1, x2, y2, stroke="#000", **attrs) -> None:
        self.element("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, **attrs)

    def circle(self, cx, cy, r, **attrs) -> None:
        self.element("circle", cx=cx, cy=cy, r=r, **attrs)

    def polygon(self, points: Iterable[tuple[float, float]], **attrs) -> None:
        pts = " ".join(f"{x:.3f},{y:.3f}".replace(".000", "") for x, y in points)
        self.element("polygon", points=pts, **attrs)

    def text(self, x, y, content, size: float = 12, anchor: str = "middle", **attrs) -> None:
        attrs.setdefault("font_family", "sans-serif")
        attrs.setdefault("dominant_baseline", "central")
        self.element("text", escape(str(content)), x=x, y=y, font_size=size, text_anchor=anchor, **attrs)

    def raw(self, markup: str) -> None:
        """Insert ready-made markup (e.g. an <animate> element); the caller escapes."""
        self.parts.append(markup)

    def to_string(self) -> str:
        w, h = self.width * self.scale, self.height * self.scale
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w:g}" height="{h:g}" '
            f'viewBox="0 0 {self.width:g} {self.height:g}">'
        )
        return head + "".join(self.parts) + "</svg>\n"
