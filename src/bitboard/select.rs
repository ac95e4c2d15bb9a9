//! The n-th point of a set, two ways with the same answers: the portable broadword select of
//! [`Bitboard::nth`], and BMI2's `pdep` (one instruction for the select within a word) where the processor has
//! it and runs it fast, chosen once at run time.

use super::Bitboard;
use crate::point::Point;
use std::sync::OnceLock;

/// A way to find the `n`-th point (0-based, in index order) of a set: every implementation gives the answer of
/// [`Bitboard::nth`].
pub(crate) trait Select {
    /// The `n`-th point of `set`; `None` when `n >= set.count()`.
    fn nth(set: Bitboard, n: u32) -> Option<Point>;
}

/// [`Bitboard::nth`] itself (any processor).
pub(crate) struct Portable;

impl Select for Portable {
    #[inline(always)]
    fn nth(set: Bitboard, n: u32) -> Option<Point> {
        set.nth(n)
    }
}

/// `pdep` of the rank's bit into the word, then its trailing zeros. Only to be used where [`fast_pdep`] is true.
#[cfg(target_arch = "x86_64")]
pub(crate) struct Pdep;

#[cfg(target_arch = "x86_64")]
impl Select for Pdep {
    #[inline(always)]
    fn nth(set: Bitboard, n: u32) -> Option<Point> {
        let bits = set.bits();
        if n >= bits.count_ones() {
            return None;
        }
        let low = bits as u64;
        let low_count = low.count_ones();
        let (word, base, rank) = if n < low_count { (low, 0, n) } else { ((bits >> 64) as u64, 64, n - low_count) };
        let deposited: u64;
        // SAFETY: `pdep` needs BMI2, which `fast_pdep` (the only way callers choose this type) has checked; the
        // instruction reads and writes registers only.
        unsafe {
            std::arch::asm!(
                "pdep {out}, {bit}, {word}",
                bit = in(reg) 1u64 << rank,
                word = in(reg) word,
                out = lateout(reg) deposited,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        Some(Point::from_index_unchecked((base + deposited.trailing_zeros()) as u8))
    }
}

/// Whether this processor has BMI1 and BMI2 and runs `pdep` in a few cycles: every Intel processor with BMI2 and AMD
/// from Zen 3 (family 0x19) on; AMD's (and Hygon's) earlier BMI2 processors run it in microcode, hundreds of
/// cycles, so they keep the portable select. Checked once.
pub(crate) fn fast_pdep() -> bool {
    static FAST: OnceLock<bool> = OnceLock::new();
    *FAST.get_or_init(detect_fast_pdep)
}

#[cfg(target_arch = "x86_64")]
fn detect_fast_pdep() -> bool {
    use std::arch::x86_64::__cpuid;
    if !(std::arch::is_x86_feature_detected!("bmi1") && std::arch::is_x86_feature_detected!("bmi2")) {
        return false;
    }
    let vendor = __cpuid(0);
    let name: Vec<u8> = [vendor.ebx, vendor.edx, vendor.ecx].iter().flat_map(|r| r.to_le_bytes()).collect();
    let amd = name == b"AuthenticAMD" || name == b"HygonGenuine";
    let signature = __cpuid(1).eax;
    let base = (signature >> 8) & 0xF;
    let family = if base == 0xF { base + ((signature >> 20) & 0xFF) } else { base };
    !amd || family >= 0x19
}

#[cfg(not(target_arch = "x86_64"))]
fn detect_fast_pdep() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Random sets of every density over all 121 points, every rank and one past the end.
    fn cases() -> Vec<(Bitboard, u32)> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut cases = Vec::new();
        for _ in 0..2000 {
            let density = rng.gen_range(0..=8);
            // Points are below 121.
            let mut bits = (1u128 << 121) - 1;
            for _ in 0..density {
                bits &= rng.gen::<u128>();
            }
            let set = Bitboard::from_bits(bits);
            for n in 0..=set.count() {
                cases.push((set, n));
            }
        }
        cases
    }

    #[test]
    fn portable_select_is_nth() {
        for (set, n) in cases() {
            let expected = set.iter().nth(n as usize);
            assert_eq!(Portable::nth(set, n), expected, "{set:?} {n}");
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn pdep_select_is_nth_where_the_processor_has_it() {
        if !std::arch::is_x86_feature_detected!("bmi2") {
            return;
        }
        for (set, n) in cases() {
            assert_eq!(Pdep::nth(set, n), set.nth(n), "{set:?} {n}");
        }
    }
}
