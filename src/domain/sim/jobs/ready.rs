//! The jobs table's ready set: the ids claimable now, with the lowest found fast.

/// Levels of [`IdSet`]: with 64 bits a word, the top level has one word up to 2²⁴ ids (the
/// table holds at most 2·10⁶ rows); past that the top level is scanned word by word.
const LEVELS: usize = 4;

/// A set of ids as a four-level bitset: bit `i` of level 0 is id `i`; bit `i` of level `l + 1`
/// says word `i` of level `l` is non-zero. Insert and remove touch one word per level; the
/// lowest id (and the next one after a given id) is found by descending from the top level.
#[derive(Debug, Clone)]
pub(super) struct IdSet {
    levels: [Vec<u64>; LEVELS],
    len: usize,
    /// An id inserted into the empty set, kept outside the bitset while it is the only one
    /// ([`NO_ID`] otherwise): a queue its workers keep up with sees one id in and the same id
    /// out, and then no level is touched. While it is set, the bitset is empty.
    lone: u64,
}

/// No lone id.
const NO_ID: u64 = u64::MAX;

impl Default for IdSet {
    fn default() -> Self {
        IdSet {
            levels: Default::default(),
            len: 0,
            lone: NO_ID,
        }
    }
}

impl IdSet {
    pub(super) fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub(super) fn insert(&mut self, id: u64) {
        if self.len == 0 {
            self.lone = id;
            self.len = 1;
            return;
        }
        if self.lone != NO_ID {
            if self.lone == id {
                return;
            }
            // A second id: both go into the bitset.
            let lone = std::mem::replace(&mut self.lone, NO_ID);
            self.len = 0;
            self.insert_bit(lone);
        }
        self.insert_bit(id);
    }

    fn insert_bit(&mut self, id: u64) {
        let w0 = (id >> 6) as usize;
        if self.levels[0].len() <= w0 {
            self.grow(w0);
        }
        let bit = 1u64 << (id & 63);
        let was = self.levels[0][w0];
        if was & bit != 0 {
            return;
        }
        self.levels[0][w0] = was | bit;
        self.len += 1;
        // Up the levels while the word below was empty.
        let mut below_was_empty = was == 0;
        let mut pos = w0 as u64;
        for level in &mut self.levels[1..] {
            if !below_was_empty {
                return;
            }
            let word = &mut level[(pos >> 6) as usize];
            below_was_empty = *word == 0;
            *word |= 1u64 << (pos & 63);
            pos >>= 6;
        }
    }

    /// Makes room for word `w0` of level 0 and the words above it (every level sized together,
    /// so that `insert` checks the size once).
    #[cold]
    fn grow(&mut self, w0: usize) {
        let mut w = w0;
        for level in &mut self.levels {
            if level.len() <= w {
                level.resize(w + 1, 0);
            }
            w >>= 6;
        }
    }

    #[inline(always)]
    pub(super) fn remove(&mut self, id: u64) {
        if self.lone != NO_ID {
            if self.lone == id {
                self.lone = NO_ID;
                self.len = 0;
            }
            return;
        }
        let mut pos = id;
        for l in 0..LEVELS {
            let w = (pos >> 6) as usize;
            let Some(word) = self.levels[l].get_mut(w) else {
                return;
            };
            let bit = 1u64 << (pos & 63);
            if l == 0 {
                if *word & bit == 0 {
                    return;
                }
                self.len -= 1;
            }
            *word &= !bit;
            if *word != 0 {
                return;
            }
            pos = w as u64;
        }
    }

    #[inline(always)]
    pub(super) fn first(&self) -> Option<u64> {
        // Empty is the usual answer when workers outnumber the waiting jobs.
        if self.len == 0 {
            return None;
        }
        if self.lone != NO_ID {
            return Some(self.lone);
        }
        // Top down: the first non-zero word of the top level, then the lowest bit of each
        // non-empty word below.
        let top = &self.levels[LEVELS - 1];
        let (w, word) = top.iter().enumerate().find(|(_, &x)| x != 0)?;
        let mut pos = (w as u64) * 64 + u64::from(word.trailing_zeros());
        for l in (0..LEVELS - 1).rev() {
            let word = self.levels[l].get(pos as usize).copied().unwrap_or(0);
            pos = pos * 64 + u64::from(word.trailing_zeros());
        }
        Some(pos)
    }

    /// The lowest id `>= from`.
    pub(super) fn next_from(&self, from: u64) -> Option<u64> {
        if self.lone != NO_ID {
            return (self.lone >= from).then_some(self.lone);
        }
        let mut pos = from;
        let mut l = 0;
        // Up: find the lowest set bit at or after `pos` on some level.
        let found = loop {
            let level = &self.levels[l];
            let w = (pos >> 6) as usize;
            if l == LEVELS - 1 {
                let first = level.get(w)? & (u64::MAX << (pos & 63));
                if first != 0 {
                    break (w as u64) * 64 + u64::from(first.trailing_zeros());
                }
                let (i, word) = level
                    .iter()
                    .enumerate()
                    .skip(w + 1)
                    .find(|(_, &x)| x != 0)?;
                break (i as u64) * 64 + u64::from(word.trailing_zeros());
            }
            let bits = level.get(w)? & (u64::MAX << (pos & 63));
            if bits != 0 {
                break (w as u64) * 64 + u64::from(bits.trailing_zeros());
            }
            pos = w as u64 + 1;
            l += 1;
        };
        // Down: the lowest set bit of each non-empty word below.
        let mut pos = found;
        while l > 0 {
            l -= 1;
            let word = self.levels[l].get(pos as usize).copied().unwrap_or(0);
            pos = pos * 64 + u64::from(word.trailing_zeros());
        }
        Some(pos)
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        let mut next = self.first();
        std::iter::from_fn(move || {
            let id = next?;
            next = id.checked_add(1).and_then(|n| self.next_from(n));
            Some(id)
        })
    }
}
