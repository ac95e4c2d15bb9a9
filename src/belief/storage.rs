//! Particle storage: each particle's slot row (the point of every hidden opponent stone-move), particle-major.

use super::Belief;

/// A slot whose point is still to be chosen (sampled during the next replay).
pub(super) const UNASSIGNED: u8 = u8::MAX;

/// No slot placed the stone (in a point-to-slot table).
pub(super) const NO_SLOT: usize = usize::MAX;

impl Belief {
    pub(super) fn row(&self, i: usize) -> &[u8] {
        &self.moves[i * self.stride..i * self.stride + self.slots]
    }

    /// Grows the slot rows so that `slots` fit.
    pub(super) fn ensure_stride(&mut self, slots: usize) {
        if slots <= self.stride {
            return;
        }
        let new_stride = (self.stride * 2).max(slots);
        let n = self.boards.len();
        let mut moves = vec![UNASSIGNED; n * new_stride];
        for i in 0..n {
            moves[i * new_stride..i * new_stride + self.slots]
                .copy_from_slice(&self.moves[i * self.stride..i * self.stride + self.slots]);
        }
        self.moves = moves;
        self.stride = new_stride;
    }
}
