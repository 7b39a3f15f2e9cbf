"""A slow, plain reference implementation of Ikeda's Area Rules III.

Written straight from the rules text (RULES.md, "Area Rules III", rules 1-8) so that it
can be read and checked line by line; the Rust core is tested against it. Reading guide:

- A board is a tuple of ``w * h`` cells, row-major from the TOP-left corner (row 0 is
  the top row), holding EMPTY, BLACK or WHITE. A *configuration* is exactly this tuple.
- A move is a flat index; ``w * h`` is the pass. GTP text ("D4", "pass") is converted
  with :func:`parse_vertex` / :func:`vertex_name` (row 1 is the BOTTOM row).
- :class:`RefGame` holds one game: the board, whose turn it is, every configuration that
  has appeared (Rule 4), the first pass (Rules 6 and 7), and an undo stack.
"""

from __future__ import annotations

EMPTY, BLACK, WHITE = 0, 1, 2
COLOR = {"B": BLACK, "W": WHITE}
NAME = {BLACK: "B", WHITE: "W"}
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP letters: no I
REASONS = ("game_over", "occupied", "suicide", "superko")  # checked in this order


def opponent(color: int) -> int:
    return BLACK + WHITE - color


def parse_vertex(text: str, w: int, h: int) -> int:
    """GTP vertex ("D4", "pass") -> flat index; pass is ``w * h``."""
    text = text.strip().upper()
    if text == "PASS":
        return w * h
    x = COLUMNS.index(text[0])
    row = int(text[1:])
    if not (0 <= x < w and 1 <= row <= h):
        raise ValueError(f"vertex {text!r} is off a {w}x{h} board")
    return (h - row) * w + x


def vertex_name(index: int, w: int, h: int) -> str:
    """Flat index -> GTP vertex; ``w * h`` -> "pass"."""
    if index == w * h:
        return "pass"
    y, x = divmod(index, w)
    return f"{COLUMNS[x]}{h - y}"


def neighbours(p: int, w: int, h: int) -> list[int]:
    y, x = divmod(p, w)
    result = []
    if y > 0:
        result.append(p - w)
    if y < h - 1:
        result.append(p + w)
    if x > 0:
        result.append(p - 1)
    if x < w - 1:
        result.append(p + 1)
    return result


def flood(board: tuple[int, ...], p: int, w: int, h: int) -> set[int]:
    """The maximal connected set of points holding the same value as ``p``."""
    value = board[p]
    region, todo = {p}, [p]
    while todo:
        q = todo.pop()
        for n in neighbours(q, w, h):
            if board[n] == value and n not in region:
                region.add(n)
                todo.append(n)
    return region


def border(board: tuple[int, ...], region: set[int], w: int, h: int) -> set[int]:
    """Points next to ``region`` that are not in it."""
    return {n for q in region for n in neighbours(q, w, h) if n not in region}


def liberties(board: tuple[int, ...], chain: set[int], w: int, h: int) -> set[int]:
    return {n for n in border(board, chain, w, h) if board[n] == EMPTY}


def diagram(board: tuple[int, ...], w: int, h: int) -> list[str]:
    """Row strings from the top row: X black, O white, . empty."""
    chars = {EMPTY: ".", BLACK: "X", WHITE: "O"}
    return ["".join(chars[board[y * w + x]] for x in range(w)) for y in range(h)]


class RefGame:
    """One game under Area Rules III."""

    def __init__(self, width: int, height: int | None = None, komi: float = 0.0,
                 setup: dict[str, list[str]] | None = None, to_move: str = "B") -> None:
        self.w, self.h = width, width if height is None else height
        if not (1 <= self.w <= 25 and 1 <= self.h <= 25):
            raise ValueError("boards are 1..25 each way")
        self.komi = komi
        cells = [EMPTY] * (self.w * self.h)
        for colour, vertices in (setup or {}).items():  # Rule 8: setup stones
            for v in vertices:
                cells[parse_vertex(v, self.w, self.h)] = COLOR[colour]
        self.board: tuple[int, ...] = tuple(cells)
        self.to_move = COLOR[to_move]
        self.seen = {self.board}  # Rule 4: every configuration so far, initial included
        self.first_pass_index: int | None = None
        self.first_passer: str | None = None
        self.over = False
        self.moves: list[int] = []
        self.captured = {"B": 0, "W": 0}  # stones of each colour removed so far
        self._undo: list[tuple] = []

    @property
    def pass_move(self) -> int:
        return self.w * self.h

    def to_index(self, move: int | str) -> int:
        return move if isinstance(move, int) else parse_vertex(move, self.w, self.h)

    def copy(self) -> RefGame:
        other = RefGame.__new__(RefGame)
        other.__dict__.update(self.__dict__)
        other.seen, other.moves = set(self.seen), list(self.moves)
        other.captured, other._undo = dict(self.captured), list(self._undo)
        return other

    # -- Rules 3, 4, 5: what a play does ----------------------------------------------

    def _try_play(self, p: int) -> tuple[str | None, tuple[int, ...], int]:
        """(reason or None, configuration after the play, number of stones removed)."""
        w, h, me = self.w, self.h, self.to_move
        cells = list(self.board)
        cells[p] = me
        removed = 0
        for n in neighbours(p, w, h):  # Rule 3: remove opponent chains with no liberty
            if cells[n] == opponent(me):
                chain = flood(tuple(cells), n, w, h)
                if not liberties(tuple(cells), chain, w, h):
                    for q in chain:
                        cells[q] = EMPTY
                    removed += len(chain)
        after = tuple(cells)
        if removed == 0:
            if not liberties(after, flood(after, p, w, h), w, h):
                return "suicide", after, 0  # Rule 5, on the played stone's chain
            return None, after, 0  # a non-capturing play is never tested by Rule 4
        if after in self.seen:
            return "superko", after, removed  # Rule 4
        return None, after, removed

    def illegal_reason(self, move: int | str) -> str | None:
        p = self.to_index(move)
        if self.over:
            return "game_over"
        if p == self.pass_move:
            return None
        if self.board[p] != EMPTY:
            return "occupied"
        return self._try_play(p)[0]

    def is_legal(self, move: int | str) -> bool:
        return self.illegal_reason(move) is None

    def legal_moves(self) -> list[int]:
        return [p for p in range(self.pass_move + 1) if self.is_legal(p)]

    def legal_mask(self) -> list[bool]:
        return [self.is_legal(p) for p in range(self.pass_move + 1)]

    def play(self, move: int | str) -> None:
        p = self.to_index(move)
        reason = self.illegal_reason(p)
        if reason is not None:
            raise ValueError(f"illegal move {vertex_name(p, self.w, self.h)}: {reason}")
        added = None  # the configuration this move adds to the history, if new
        saved = (self.board, self.first_pass_index, self.first_passer, dict(self.captured))
        if p == self.pass_move:
            n = len(self.moves)
            if self.first_pass_index is None:
                self.first_pass_index, self.first_passer = n, NAME[self.to_move]
            elif self.moves[-1] == self.pass_move and n - 1 != self.first_pass_index:
                self.over = True  # Rule 6: two passes in a row, neither the first pass
        else:
            _, after, removed = self._try_play(p)
            self.captured[NAME[opponent(self.to_move)]] += removed
            self.board = after
            if after not in self.seen:
                self.seen.add(after)
                added = after
        self._undo.append(saved + (added,))
        self.moves.append(p)
        self.to_move = opponent(self.to_move)

    def undo(self) -> None:
        board, self.first_pass_index, self.first_passer, self.captured, added = \
            self._undo.pop()
        self.board = board
        if added is not None:
            self.seen.remove(added)
        self.moves.pop()
        self.to_move = opponent(self.to_move)
        self.over = False  # no move is ever played after the end

    # -- Rule 7: the score --------------------------------------------------------------

    def ownership(self) -> list[int]:
        """Per point: the colour whose stone or territory it is, else EMPTY."""
        owner = list(self.board)
        done: set[int] = set()
        for p in range(self.pass_move):
            if self.board[p] == EMPTY and p not in done:
                region = flood(self.board, p, self.w, self.h)
                done |= region
                colours = {self.board[q] for q in border(self.board, region, self.w, self.h)}
                if len(colours) == 1:  # reaches stones of one colour only
                    (colour,) = colours
                    for q in region:
                        owner[q] = colour
        return owner

    def score(self) -> dict[str, float]:
        owner = self.ownership()
        stones = {c: self.board.count(COLOR[c]) for c in "BW"}
        territory = {c: owner.count(COLOR[c]) - stones[c] for c in "BW"}
        half = 0.5 if self.first_passer == "W" else 0.0
        black = stones["B"] + territory["B"] - half
        white = stones["W"] + territory["W"] + half + self.komi
        return {"black": black, "white": white, "margin": black - white,
                "black_stones": stones["B"], "white_stones": stones["W"],
                "black_territory": territory["B"], "white_territory": territory["W"],
                "half_point": half, "komi": self.komi}

    def diagram(self) -> list[str]:
        return diagram(self.board, self.w, self.h)


def perft(game: RefGame, depth: int) -> int:
    """Number of legal move sequences (passes included) of exactly ``depth`` moves."""
    if depth == 0:
        return 1
    total = 0
    for move in game.legal_moves():  # empty once the game is over
        if depth == 1:
            total += 1
            continue
        game.play(move)
        total += perft(game, depth - 1)
        game.undo()
    return total


# -- Other rulesets: RULES.md "Territory Rules I" and "Other presets" --------------------
#
# Same board and history as RefGame; only the parts a ruleset changes are redone here:
# which plays are tested against history (ko), whether self-capture is allowed (the
# chain is then removed), when passes end the game, and how the end is counted.

#: name -> (ko, suicide allowed, ending, scoring, first-pass half point, pass stones)
PRESETS = {
    "area3": ("capturing-superko", False, "first-pass", "area", True, False),
    "area2": ("capturing-superko", False, "two-passes", "area", False, False),
    "territory1": ("capturing-superko", False, "equal-moves", "territory", False, True),
    "tromp-taylor": ("positional-superko", True, "two-passes", "area", False, False),
}


def stones(board: tuple[int, ...]) -> int:
    return sum(1 for v in board if v != EMPTY)


def preliminary_end(passes: list[bool]) -> int | None:
    """0-based index of the second pass of the first two passes in succession."""
    for i in range(1, len(passes)):
        if passes[i - 1] and passes[i]:
            return i
    return None


def end_index(passes: list[bool], ending: str) -> int | None:
    """0-based index of the move that ends the game (``passes[i]``: move i is a pass)."""
    first = passes.index(True) if True in passes else None
    prelim = preliminary_end(passes)
    for i in range(1, len(passes)):
        if not (passes[i - 1] and passes[i]):
            continue
        if ending == "two-passes":
            return i
        if ending == "first-pass" and i - 1 != first:  # Area III Rule 6
            return i
        # Territory I: both passes after the preliminary end, and T1 + P1 == T2 + P2,
        # i.e. an even number of moves since the preliminary end (colours alternate)
        if ending == "equal-moves" and i - 1 > prelim and (i - prelim) % 2 == 0:
            return i
    return None


class RulesGame(RefGame):
    """One game under a preset of :data:`PRESETS` (``simple-ko`` is not modelled)."""

    def __init__(self, width: int, height: int | None = None, komi: float = 0.0,
                 setup: dict[str, list[str]] | None = None, to_move: str = "B",
                 rules: str = "area3") -> None:
        super().__init__(width, height, komi, setup, to_move)
        self.rules = rules
        (self.ko, self.suicide, self.ending, self.scoring, self.half_point,
         self.pass_stones) = PRESETS[rules]
        self.first_player = to_move

    def copy(self) -> RulesGame:
        other = RulesGame.__new__(RulesGame)
        other.__dict__.update(self.__dict__)
        other.seen, other.moves = set(self.seen), list(self.moves)
        other.captured, other._undo = dict(self.captured), list(self._undo)
        return other

    def colour_of_move(self, i: int) -> str:
        """Who made move ``i`` (0-based): colours alternate from the first player."""
        return self.first_player if i % 2 == 0 else NAME[opponent(COLOR[self.first_player])]

    def _try_play(self, p: int) -> tuple[str | None, tuple[int, ...], int]:
        w, h, me = self.w, self.h, self.to_move
        cells = list(self.board)
        cells[p] = me
        for n in neighbours(p, w, h):  # remove opponent chains with no liberty
            if cells[n] == opponent(me):
                chain = flood(tuple(cells), n, w, h)
                if not liberties(tuple(cells), chain, w, h):
                    for q in chain:
                        cells[q] = EMPTY
        own = flood(tuple(cells), p, w, h)
        if not liberties(tuple(cells), own, w, h):  # only if nothing was removed
            if not self.suicide:
                return "suicide", tuple(cells), 0
            for q in own:  # self-capture: the played chain is removed
                cells[q] = EMPTY
        after = tuple(cells)
        removed = stones(self.board) + 1 - stones(after)  # of either colour
        if after in self.seen and (self.ko == "positional-superko" or removed):
            return "superko", after, removed
        return None, after, removed

    def play(self, move: int | str) -> None:
        p = self.to_index(move)
        reason = self.illegal_reason(p)
        if reason is not None:
            raise ValueError(f"illegal move {vertex_name(p, self.w, self.h)}: {reason}")
        added = None
        saved = (self.board, self.first_pass_index, self.first_passer, dict(self.captured))
        if p == self.pass_move:
            if self.first_pass_index is None:
                self.first_pass_index, self.first_passer = len(self.moves), NAME[self.to_move]
        else:
            _, after, _ = self._try_play(p)
            for c in "BW":  # stones of each colour that left the board
                played = 1 if COLOR[c] == self.to_move else 0
                self.captured[c] += self.board.count(COLOR[c]) + played - after.count(COLOR[c])
            self.board = after
            if after not in self.seen:
                self.seen.add(after)
                added = after
        self._undo.append(saved + (added,))
        self.moves.append(p)
        self.to_move = opponent(self.to_move)
        self.over = end_index(self.passes(), self.ending) is not None

    def passes(self) -> list[bool]:
        return [m == self.pass_move for m in self.moves]

    def preliminary_end(self) -> int | None:
        """1-based number of the move that formed the preliminary end, if any."""
        i = preliminary_end(self.passes())
        return None if i is None else i + 1

    def table(self) -> dict[str, int] | None:
        """Seed 003's Table 1 quantities (index 1 Black, 2 White), or None before the
        preliminary end. The two passes forming it count in neither M nor P."""
        prelim = preliminary_end(self.passes())
        if prelim is None:
            return None
        at_prelim = self._undo[prelim][0]  # the board before that pass, i.e. after it
        t: dict[str, int] = {}
        owner = self.ownership()
        for k, c in (("1", "B"), ("2", "W")):
            mine = [i for i in range(len(self.moves)) if self.colour_of_move(i) == c]
            t["M" + k] = sum(1 for i in mine if i < prelim and self.moves[i] != self.pass_move)
            t["L" + k] = at_prelim.count(COLOR[c])
            t["T" + k] = sum(1 for i in mine if i > prelim and self.moves[i] != self.pass_move)
            t["P" + k] = sum(1 for i in mine if i > prelim and self.moves[i] == self.pass_move)
            t["Q" + k] = self.board.count(COLOR[c])
            t["S" + k] = owner.count(COLOR[c]) - self.board.count(COLOR[c])
        return t

    def lost(self) -> dict[str, int]:
        """Stones each colour lost: captured, plus pass stones under Territory I."""
        t = self.table() if self.pass_stones else None
        return {c: self.captured[c] + (t["P" + k] if t else 0) for c, k in (("B", "1"), ("W", "2"))}

    def score(self) -> dict[str, float]:
        s = super().score()
        if self.scoring == "area" and not self.half_point:  # no first-pass half point
            s["black"] += s["half_point"]
            s["white"] -= s["half_point"]
            s["half_point"] = 0.0
        if self.scoring == "territory":
            lost = self.lost()
            s["black"] = s["black_territory"] - lost["B"]
            s["white"] = s["white_territory"] - lost["W"] + self.komi
            s["half_point"] = 0.0
        s["black_lost"], s["white_lost"] = self.lost()["B"], self.lost()["W"]
        s["margin"] = s["black"] - s["white"]
        return s


def count_games(width: int, height: int, rules: str) -> int:
    """Number of complete games from the empty board, Black first (brute force)."""

    def count(game: RulesGame) -> int:
        if game.over:
            return 1
        total = 0
        for move in game.legal_moves():
            game.play(move)
            total += count(game)
            game.undo()
        return total

    return count(RulesGame(width, height, rules=rules))
