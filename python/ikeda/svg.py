"""Boards as SVG, with only the standard library: stones, coordinates, the last move,
optional move numbers, territory (ownership) marks and dead stones, any board size.

Every element carries a class (``stone black``, ``stone white``, ``last-move``,
``move-number``, ``territory black``, ``territory white``, ``dead``, ``estimated``,
``coord``, ``star``) so that the picture can be styled and checked.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from xml.sax.saxutils import escape

from .coords import BLACK, GTP_LETTERS, WHITE
from .errors import ArgumentError
from .game import Game, Move
from .handicap import handicap_points, max_fixed_handicap
from .score import format_points

WOOD, LINE = "#dcb35c", "#222"


def board(
    game: Game,
    *,
    size: int = 480,
    coordinates: bool = True,
    move_numbers: bool = False,
    last_move: bool = True,
    territory: bool = False,
    dead: Sequence[Move] = (),
    count: bool = False,
    recorded: str | None = None,
) -> str:
    """The position of `game` as an SVG document `size` pixels on its longer side.

    `move_numbers` writes on each stone the number of the move that placed it (setup
    stones have none); `territory` marks each empty point (and each dead stone) with a
    small square of the colour that owns it (Definition 5 after removing `dead`); `dead`
    chains are drawn faded with a cross. Territory marks with no `dead` given use the
    game's own decision (:meth:`Game.final_status`: status confirmation under the
    ``japanese`` preset, no dead stones otherwise). Stones whose status could only be estimated
    there (a region beyond the search) carry a dashed ring (class ``estimated``), so a
    picture never passes an estimate off as proven.

    `count` draws the count as well: territory and dead stones as above, and a caption
    (class ``caption``) with each side's total and what makes it (stones or territory,
    prisoners, komi), the result, `recorded` (the record's ``RE``) when given, and under
    Japanese counting how many stones have a proven status; a
    legend (class ``legend``) explains the dashed rings whenever some are drawn."""
    pixels = picture_size(size)
    caption = count_caption(game, recorded) if count else []
    territory = territory or count
    estimated: set[int] = set()
    if territory and not dead:
        decided = game.final_status()  # never refuses: a region beyond the search is estimated
        dead = decided["dead"]
        estimated = {game.board.index(v) for v in decided["estimated"]}
    w, h = game.width, game.height
    margin = 1.2 if coordinates else 0.6
    cell = pixels / (max(w, h) - 1 + 2 * margin)
    width, height = cell * (w - 1 + 2 * margin), cell * (h - 1 + 2 * margin)
    board_height = height
    small = min(cell * 0.42, pixels / 34)  # the caption's lines stay inside the picture
    legend = ["dashed ring: status estimated (a region beyond the search), not proven"] if estimated else []
    height += small * 1.5 * (len(caption) + len(legend)) + (small if caption or legend else 0)

    def xy(i: int) -> tuple[float, float]:
        return cell * (margin + i % w), cell * (margin + i // w)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.2f} {height:.2f}" class="ikeda-board">',
        f'<rect class="background" width="100%" height="100%" fill="{WOOD}"/>',
    ]
    x0, y0, x1, y1 = cell * margin, cell * margin, cell * (margin + w - 1), cell * (margin + h - 1)
    lines = [f"M{cell * (margin + x):.2f} {y0:.2f}V{y1:.2f}" for x in range(w)]
    lines += [f"M{x0:.2f} {cell * (margin + y):.2f}H{x1:.2f}" for y in range(h)]
    out.append(f'<path class="grid" d="{"".join(lines)}" stroke="{LINE}" stroke-width="{cell / 30:.2f}" fill="none"/>')
    stars = star_points(w) if w == h else 0
    if stars:
        index = game.board.index
        for v in handicap_points(stars, w):
            cx, cy = xy(index(v))
            out.append(f'<circle class="star" cx="{cx:.2f}" cy="{cy:.2f}" r="{cell / 10:.2f}" fill="{LINE}"/>')
    if coordinates:
        font = cell * 0.4
        for x in range(w):
            cx = cell * (margin + x)
            for cy in (cell * margin * 0.45, height - cell * margin * 0.3):
                out.append(_text("coord", cx, cy, GTP_LETTERS[x], font, LINE))
        for y in range(h):
            cy = cell * (margin + y) + font * 0.35
            for cx in (cell * margin * 0.4, width - cell * margin * 0.4):
                out.append(_text("coord", cx, cy, str(h - y), font, LINE))
    stones = game.to_numpy().ravel().tolist()
    owner = game.ownership(dead).ravel().tolist() if (territory or dead) else None
    dead_points = {i for i, s in enumerate(stones) if s and owner is not None and owner[i] != s}
    numbers: dict[int, int] = {}
    if move_numbers:
        for n, i in enumerate(game.move_indices, 1):
            numbers[i] = n
    record = game.move_indices
    last = record[-1] if record and last_move else None
    r = cell * 0.47
    for i, s in enumerate(stones):
        cx, cy = xy(i)
        if s:
            color, fill, edge = ("black", "#111", "#000") if s == BLACK else ("white", "#f4f4f4", "#333")
            fade = ' opacity="0.45"' if i in dead_points else ""
            out.append(f'<circle class="stone {color}" cx="{cx:.2f}" cy="{cy:.2f}" r="{r:.2f}" fill="{fill}" stroke="{edge}" stroke-width="{cell / 40:.2f}"{fade}/>')
            ink = "#fff" if s == BLACK else "#000"
            if i in numbers:
                out.append(_text("move-number", cx, cy + cell * 0.15, str(numbers[i]), cell * (0.42 if numbers[i] < 100 else 0.32), ink))
            if i == last:
                # With numbers the ring goes round the number, in red, so both show.
                ring, stroke = (cell * 0.39, "#c00") if i in numbers else (cell * 0.2, ink)
                out.append(f'<circle class="last-move" cx="{cx:.2f}" cy="{cy:.2f}" r="{ring:.2f}" fill="none" stroke="{stroke}" stroke-width="{cell / 15:.2f}"/>')
            if i in estimated:
                out.append(f'<circle class="estimated" cx="{cx:.2f}" cy="{cy:.2f}" r="{r * 0.78:.2f}" fill="none" stroke="#e07000" stroke-width="{cell / 18:.2f}" stroke-dasharray="{cell / 9:.2f} {cell / 12:.2f}"/>')
            if i in dead_points:
                d = cell * 0.22
                out.append(f'<path class="dead" d="M{cx - d:.2f} {cy - d:.2f}L{cx + d:.2f} {cy + d:.2f}M{cx - d:.2f} {cy + d:.2f}L{cx + d:.2f} {cy - d:.2f}" stroke="#c00" stroke-width="{cell / 12:.2f}"/>')
        if territory and owner is not None and owner[i] in (BLACK, WHITE) and (not s or i in dead_points):
            color, fill = ("black", "#111") if owner[i] == BLACK else ("white", "#f4f4f4")
            q = cell * 0.28
            out.append(f'<rect class="territory {color}" x="{cx - q / 2:.2f}" y="{cy - q / 2:.2f}" width="{q:.2f}" height="{q:.2f}" fill="{fill}" stroke="#555" stroke-width="{cell / 60:.2f}"/>')
    line_y = board_height + small * 0.5
    for cls, lines in (("caption", caption), ("legend", legend)):
        for line in lines:
            line_y += small * 1.5
            out.append(
                f'<text class="{cls}" x="{cell * margin * 0.4:.2f}" y="{line_y:.2f}" font-size="{small:.2f}" '
                f'font-family="sans-serif" fill="{LINE}">{escape(line)}</text>'
            )
    out.append("</svg>")
    return "\n".join(out)


def count_caption(game: Game, recorded: str | None = None) -> list[str]:
    """The lines of a count's caption: the rules, each side's total with what makes it,
    the prisoners, the result (and the recorded one). A Japanese count never refuses: a
    region beyond the search is estimated (:meth:`Game.score`)."""
    score = game.score()
    rules = game.rules
    taken = game.prisoners
    if rules.scoring == "area":
        parts = (f"{score.black_stones} stones + {score.black_territory} territory", f"{score.white_stones} stones + {score.white_territory} territory")
        if score.half_point:
            parts = (parts[0] + f" - {score.half_point:g} (White passed first)", parts[1] + f" + {score.half_point:g}")
    elif rules.scoring == "territory":
        parts = (f"{score.black_territory} territory - {score.black_lost} lost", f"{score.white_territory} territory - {score.white_lost} lost")
    else:  # Japanese: prisoners include the dead stones
        parts = (f"{score.black_territory} territory + {score.white_lost} prisoners", f"{score.white_territory} territory + {score.black_lost} prisoners")
    komi = format_points(score.komi)
    lines = [
        f"Black {format_points(score.black)} = {parts[0]}",
        f"White {format_points(score.white)} = {parts[1]} + {komi} komi",
        f"prisoners taken in play: Black {taken['B']}, White {taken['W']}; dead stones: {len(score.dead)}",
        f"{game.result or score.result} by {rules.name} counting"
        + (f" (recorded: {recorded})" if recorded else "")
        + ("" if game.is_over else ", the game not over"),
    ]
    if rules.scoring == "japanese":
        lines.append(proven_line(int((game.to_numpy() != 0).sum()), len(score.estimated)))
    return lines


def proven_line(stones: int, estimated: int) -> str:
    """How many of the `stones` on the board have a proven status under Japanese counting
    (the others, `estimated`, carry the dashed ring)."""
    if not estimated:
        return f"status proven for every stone ({stones})"
    return f"status proven for {stones - estimated} of {stones} stones, {estimated} estimated"


#: The picture's longer side, in pixels: enough for a poster, and a PNG of it stays
#: within 256 MB (cairo's surfaces are 4 bytes a pixel).
MIN_SIZE, MAX_SIZE = 16, 8192


def picture_size(size: object) -> float:
    """`size` as a finite number of pixels in ``MIN_SIZE..=MAX_SIZE``, or
    :class:`ArgumentError` naming it."""
    if isinstance(size, bool) or not isinstance(size, (int, float)):
        raise ArgumentError(f"size must be a number of pixels, not {size!r}")
    if isinstance(size, int) and not MIN_SIZE <= size <= MAX_SIZE:  # before float(): 10**400
        raise ArgumentError(f"size must be within {MIN_SIZE}..={MAX_SIZE} pixels, not {size}")
    if not math.isfinite(size) or not MIN_SIZE <= size <= MAX_SIZE:
        raise ArgumentError(f"size must be within {MIN_SIZE}..={MAX_SIZE} pixels, not {size!r}")
    return float(size)


def star_points(size: int) -> int:
    """How many star points a square board shows (the fixed handicap pattern drawn): 9 on
    odd boards from 15x15 (19x19), 5 on 9x9, 11x11 and 13x13 (corners and centre), else
    the largest fixed handicap (4 on even boards and 7x7, none below 7x7)."""
    if size % 2 and size >= 15:
        return 9
    if size % 2 and 9 <= size <= 13:
        return 5
    return max_fixed_handicap(size)


def _text(cls: str, x: float, y: float, text: str, size: float, fill: str) -> str:
    return (
        f'<text class="{cls}" x="{x:.2f}" y="{y:.2f}" font-size="{size:.2f}" font-family="sans-serif" '
        f'text-anchor="middle" fill="{fill}">{escape(text)}</text>'
    )


def to_png(svg: str, path: str) -> None:
    """Writes `svg` as a PNG through cairosvg (an optional dependency)."""
    try:
        import cairosvg  # type: ignore[import-untyped]
    except ImportError as e:  # pragma: no cover - depends on the environment
        from .errors import IkedaError

        raise IkedaError("PNG output needs cairosvg (pip install cairosvg)") from e
    cairosvg.svg2png(bytestring=svg.encode(), write_to=path)
