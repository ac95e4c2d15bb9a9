//! How long one search may think: the limits the time manager hands to a player for one try.

use std::time::{Duration, Instant};

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
    /// The instant `soft` and `hard` count from: the session sets it when it budgets the try, so whatever the
    /// engine does before the search starts (belief catch-up, building the search's input) is charged to the
    /// budget; `None`: they count from the start of the search.
    pub since: Option<Instant>,
}
