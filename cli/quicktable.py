"""A rich Table that draws its plain rows itself: the same characters and styles as rich's,
without rich's per-cell measuring, wrapping and cropping.

``domino validate`` draws two tables a log (rounds, totals); rich spent about 10 ms on them for
a long match, so 200 logs took 2 s to print. A table whose cells are plain text that fits the
width needs none of that work: each column is as wide as its widest cell plus its padding, and
each row is one line. :class:`QuickTable` draws those rows itself and
leaves everything else to rich: a table wider than the console (rich wraps its cells), a cell
that is not a one-line printable string without ``:`` (rich may replace emoji codes), or any
setting other than the defaults it was made with. tests/cli/test_cli_quicktable.py holds its
output, characters and styles, to rich's own on the same tables.
"""

from __future__ import annotations

from typing import Iterator

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.table import Table


class QuickTable(Table):
    """``Table(...)`` as rich draws it, faster for plain one-line rows (see the module)."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        texts = self._plain_columns()
        if texts is not None:
            cells = [[cell_len(t) for t in column] for column in texts]
            widths = [max(column) + 2 for column in cells]  # the padding: a space each side
            if sum(widths) + len(widths) + 1 <= options.max_width:  # and a border each side
                yield from self._draw(console, options, texts, cells, widths)
                return
        yield from super().__rich_console__(console, options)

    def _plain_columns(self) -> list[list[str]] | None:
        """Each column's header and cells, or None where rich must draw the table itself."""
        if not (self.box is box.HEAVY_HEAD and self.show_header and self.show_edge
                and not self.show_footer and not self.show_lines and not self.leading
                and self.padding == (0, 1, 0, 1) and self.pad_edge and not self.collapse_padding
                and not self.expand and self.width is None and self.min_width is None
                and not self.caption and self.style in ("", "none") and not self.border_style
                and not self.row_styles and self.title_style is None
                and self.header_style == "table.header" and self.columns
                and isinstance(self.title, (str, type(None))) and not any(r.style or r.end_section
                                                                          for r in self.rows)):
            return None
        columns = []
        for column in self.columns:
            if (column.justify not in ("left", "right") or column.style or column.header_style
                    or column.width is not None or column.min_width is not None
                    or column.max_width is not None or column.ratio is not None):
                return None
            texts = [column.header, *column.cells]
            if not all(type(t) is str and t.isprintable() and ":" not in t for t in texts):
                return None
            columns.append(texts)
        if self.title is not None and not (self.title.isprintable() and ":" not in self.title):
            return None
        return columns

    def _draw(self, console: Console, options: ConsoleOptions, texts: list[list[str]],
              cells: list[list[int]], widths: list[int]) -> Iterator[Segment]:
        """``texts``: each column's header and cells; ``cells``: their widths on the terminal."""
        table_width = sum(widths) + len(widths) + 1
        border = console.get_style(self.style or "") + console.get_style(self.border_style or "")
        line = Segment.line()
        if self.title:
            if cell_len(self.title) > table_width or self.title_justify != "left":
                yield from console.render(console.render_str(
                    self.title, style="table.title", highlight=False),
                    options.update(width=table_width, highlight=self.highlight, height=None,
                                   justify=self.title_justify))
            else:
                yield Segment(self.title + " " * (table_width - cell_len(self.title)),
                              console.get_style("table.title"))
                yield line
        edges = self.box.substitute(options, safe=console.safe_box if self.safe_box is None
                                    else self.safe_box)
        yield Segment(edges.get_top(widths), border)
        yield line
        head = console.get_style(self.header_style or "")
        body = console.get_style("")
        justify = [column.justify for column in self.columns]
        count = len(texts[0])
        for index in range(count):
            if index == 0:
                left, right, divider, style = edges.head_left, edges.head_right, edges.head_vertical, head
            elif index == count - 1:
                left, right, divider, style = edges.foot_left, edges.foot_right, edges.foot_vertical, body
            else:
                left, right, divider, style = edges.mid_left, edges.mid_right, edges.mid_vertical, body
            row = []
            for width, how, column, sizes in zip(widths, justify, texts, cells):
                text = column[index]
                gap = " " * (width - 2 - sizes[index])
                row.append(text + gap if how == "left" else gap + text)
            if not style and not border:  # no style to draw: the row as one segment
                yield Segment(left + divider.join(f" {cell} " for cell in row) + right)
            else:
                yield Segment(left, border)
                for column, cell in enumerate(row):
                    if column:
                        yield Segment(divider, border)
                    yield Segment(" ", style)  # the padding, the text, the padding: as rich's
                    yield Segment(cell, style)
                    yield Segment(" ", style)
                yield Segment(right, border)
            yield line
            if index == 0:
                yield Segment(edges.get_row(widths, "head", edge=True), border)
                yield line
        yield Segment(edges.get_bottom(widths), border)
        yield line
