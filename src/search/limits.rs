//! How long one search may think: the limits the time manager hands to a player for one try.

use std::time::Duration;

/// How long a search may think; built by the session's time manager for each try.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchLimits {
    /// Aim to stop by this time.
    pub soft: Option<Duration>,
    /// Never think past this time.
    pub hard: Option<Duration>,
    /// Stop after this many playouts.
    pub playouts: Option<u64>,
    /// Answer at once with a safe try (almost no time left).
    pub emergency: bool,
}
