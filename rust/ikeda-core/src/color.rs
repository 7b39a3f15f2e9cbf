//! Colours of stones and of the player to move.

/// A player, and the colour of that player's stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Color {
    Black = 1,
    White = 2,
}

impl Color {
    /// The other player.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: the index into per-colour arrays.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize - 1
    }

    /// `'B'` or `'W'`, as in GTP and SGF.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// Reads `B`/`W`/`black`/`white` in any case.
    #[must_use]
    pub fn parse(s: &str) -> Option<Color> {
        match s.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Color::Black),
            "w" | "white" => Some(Color::White),
            _ => None,
        }
    }
}

/// What a point of the padded board holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Cell {
    Empty = 0,
    Black = 1,
    White = 2,
    /// The border around the board; never played on.
    Wall = 3,
}

impl Cell {
    #[inline]
    #[must_use]
    pub const fn stone(c: Color) -> Cell {
        match c {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }

    /// The colour of a stone, or `None` for empty and wall.
    #[inline]
    #[must_use]
    pub const fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_and_parse() {
        assert_eq!(Color::Black.opponent(), Color::White);
        assert_eq!(Color::parse("white"), Some(Color::White));
        assert_eq!(Color::parse("x"), None);
        assert_eq!(Cell::stone(Color::White).color(), Some(Color::White));
        assert_eq!(Cell::Wall.color(), None);
    }
}
