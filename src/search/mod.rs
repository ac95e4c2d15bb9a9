//! Information-set MCTS over the belief: tree, workers, playout policy, limits.

pub mod playout;
