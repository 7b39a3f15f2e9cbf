//! Board geometry: the padded one-dimensional layout and the coordinate systems.
//!
//! | system      | origin            | example (9x9) | pass        |
//! |-------------|-------------------|---------------|-------------|
//! | GTP vertex  | A1 = bottom left, letters skip `I` | `D4` | `pass` |
//! | flat index  | 0 = top left, row-major | 5*9+3 = 48 for D4 | `w*h` |
//! | loc (internal) | padded, `(x+1) + (r+1)*(w+1)`, r = row from the top | | — |
//!
//! The padded layout (as in KataGo) surrounds the board with wall cells, so the four
//! neighbours of any point are fixed offsets and need no bounds checks. One wall column
//! serves as both the left and the right border.

/// Largest side length, each way.
pub const MAX_SIDE: usize = 25;
/// Cells of the largest padded board: `(h + 2) * (w + 1) + 1`.
pub const MAX_CELLS: usize = (MAX_SIDE + 2) * (MAX_SIDE + 1) + 1;

/// A padded board index.
pub type Loc = u16;

/// Width, height and the padded stride of one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    pub width: u8,
    pub height: u8,
    pub stride: u16,
}

/// Why a vertex or size could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoordError {
    BadSize { width: usize, height: usize },
    Malformed(String),
    OffBoard(String),
    BadIndex(i64),
}

impl std::fmt::Display for CoordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CoordError::BadSize { width, height } => {
                write!(
                    f,
                    "board size {width}x{height} is not within 1..={MAX_SIDE} each way"
                )
            }
            CoordError::Malformed(s) => write!(f, "{s:?} is not a GTP vertex or \"pass\""),
            CoordError::OffBoard(s) => write!(f, "{s:?} is off the board"),
            CoordError::BadIndex(i) => write!(f, "flat index {i} is off the board"),
        }
    }
}

impl std::error::Error for CoordError {}

/// GTP column letters: A..Z without I.
const LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

impl Geometry {
    /// A `width` x `height` board, each 1..=25.
    pub fn new(width: usize, height: usize) -> Result<Geometry, CoordError> {
        if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
            return Err(CoordError::BadSize { width, height });
        }
        Ok(Geometry {
            width: width as u8,
            height: height as u8,
            stride: width as u16 + 1,
        })
    }

    #[inline]
    #[must_use]
    pub fn points(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Number of padded cells in use.
    #[inline]
    #[must_use]
    pub fn cells(&self) -> usize {
        (self.height as usize + 2) * self.stride as usize + 1
    }

    /// Calls `f(flat index, loc)` for every on-board loc whose bit is set in `set` (bit
    /// `loc % 64` of word `loc / 64`), in flat-index order.
    #[inline]
    pub fn for_each_set_index(&self, set: &[u64], mut f: impl FnMut(usize, Loc)) {
        let (width, stride) = (usize::from(self.width), usize::from(self.stride));
        // Row r (from 0) holds locs (r+1)*s + 1 ..= (r+1)*s + w.
        let (mut row_base, mut index_base) = (stride + 1, 0);
        for (k, &word) in set.iter().enumerate().take(self.cells().div_ceil(64)) {
            let mut bits = word;
            while bits != 0 {
                let loc = k * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                while loc >= row_base + stride {
                    row_base += stride;
                    index_base += width;
                }
                f(index_base + loc - row_base, loc as Loc);
            }
        }
    }

    /// The flat index that means pass.
    #[inline]
    #[must_use]
    pub fn pass_index(&self) -> usize {
        self.points()
    }

    /// Column `x` from the left, row `r` from the top.
    #[inline]
    #[must_use]
    pub fn loc(&self, x: usize, r: usize) -> Loc {
        ((x + 1) + (r + 1) * self.stride as usize) as Loc
    }

    /// Flat index (row-major from the top left) to loc. Precondition: `i < points()`.
    #[inline]
    #[must_use]
    pub fn loc_of_index(&self, i: usize) -> Loc {
        let w = self.width as usize;
        self.loc(i % w, i / w)
    }

    /// Loc to flat index. Precondition: `loc` is on the board.
    #[inline]
    #[must_use]
    pub fn index_of_loc(&self, loc: Loc) -> usize {
        let s = self.stride as usize;
        let l = loc as usize;
        (l / s - 1) * self.width as usize + (l % s - 1)
    }

    /// Every on-board loc, in flat-index order (row by row, no division per point).
    pub fn locs(self) -> impl Iterator<Item = Loc> {
        let (w, s) = (Loc::from(self.width), self.stride);
        (1..=Loc::from(self.height)).flat_map(move |r| r * s + 1..r * s + 1 + w)
    }

    /// The four neighbour offsets.
    #[inline]
    #[must_use]
    pub fn dirs(&self) -> [isize; 4] {
        let s = self.stride as isize;
        [-s, -1, 1, s]
    }

    /// Reads a flat index, where `w*h` is pass (`None`).
    pub fn parse_index(&self, i: i64) -> Result<Option<usize>, CoordError> {
        match usize::try_from(i) {
            Ok(u) if u < self.points() => Ok(Some(u)),
            Ok(u) if u == self.points() => Ok(None),
            _ => Err(CoordError::BadIndex(i)),
        }
    }

    /// Reads a GTP vertex (case-insensitive) or `pass` into a flat index (`None` = pass).
    pub fn parse_vertex(&self, s: &str) -> Result<Option<usize>, CoordError> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("pass") {
            return Ok(None);
        }
        let b = t.as_bytes();
        if b.len() < 2 || b.len() > 3 || !b[1..].iter().all(u8::is_ascii_digit) || b[1] == b'0' {
            return Err(CoordError::Malformed(s.to_string()));
        }
        let letter = b[0].to_ascii_uppercase();
        let x = LETTERS
            .iter()
            .position(|&l| l == letter)
            .ok_or_else(|| CoordError::Malformed(s.to_string()))?;
        let row: usize = t[1..]
            .parse()
            .map_err(|_| CoordError::Malformed(s.to_string()))?;
        if x >= self.width as usize || row > self.height as usize {
            return Err(CoordError::OffBoard(s.to_string()));
        }
        Ok(Some((self.height as usize - row) * self.width as usize + x))
    }

    /// GTP name of a flat index; `w*h` gives `pass`. Precondition: `i <= points()`.
    #[must_use]
    pub fn vertex_name(&self, i: usize) -> String {
        if i >= self.points() {
            return "pass".to_string();
        }
        let w = self.width as usize;
        let x = i % w;
        let row = self.height as usize - i / w;
        format!("{}{}", LETTERS[x] as char, row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_round_trip() {
        let g = Geometry::new(19, 19).unwrap();
        assert_eq!(g.parse_vertex("A19").unwrap(), Some(0));
        assert_eq!(g.parse_vertex("a1").unwrap(), Some(18 * 19));
        assert_eq!(g.parse_vertex("T1").unwrap(), Some(18 * 19 + 18));
        assert_eq!(g.parse_vertex("PASS").unwrap(), None);
        for i in 0..g.points() {
            assert_eq!(g.parse_vertex(&g.vertex_name(i)).unwrap(), Some(i));
            assert_eq!(g.index_of_loc(g.loc_of_index(i)), i);
        }
        assert!(g.parse_vertex("I5").is_err());
        assert!(g.parse_vertex("U1").is_err());
        assert!(g.parse_vertex("A20").is_err());
        assert!(g.parse_vertex("A0").is_err());
        assert!(g.parse_vertex("A01").is_err());
        assert!(g.parse_vertex("").is_err());
    }

    #[test]
    fn rectangular_layout() {
        let g = Geometry::new(5, 3).unwrap();
        assert_eq!(g.parse_vertex("E3").unwrap(), Some(4));
        assert_eq!(g.parse_vertex("A1").unwrap(), Some(10));
        assert!(g.parse_vertex("A4").is_err());
        assert!(Geometry::new(0, 3).is_err());
        assert!(Geometry::new(26, 3).is_err());
        assert!(g.cells() <= MAX_CELLS);
    }
}
