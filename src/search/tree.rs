//! The search tree of one worker: decision nodes for our tries, edges with statistics, children by outcome.

use crate::point::Move;

/// What we were told after a try and the opponent's reply: the key of a child node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutcomeKey {
    /// The try was illegal; the turn goes on (retry) or passes (lose-turn).
    Illegal,
    /// Legal, no capture; then the opponent's turn captured nothing of ours.
    Quiet,
    /// Legal with a capture (or the opponent's reply took stones of ours): a different situation.
    Eventful,
}

/// One try from a decision node.
#[derive(Clone, Debug)]
pub struct Edge {
    /// The try.
    pub mv: Move,
    /// Times chosen.
    pub visits: u32,
    /// Sum of rewards (1 win, 0 loss, 0.5 draw).
    pub wins: f32,
    /// Times it turned out illegal.
    pub illegal: u32,
    /// Information bonus: alpha * p * (1 - p) at this point (0 when probing is off there).
    pub bonus: f32,
    /// Children by outcome (at most three).
    pub children: [u32; 3],
}

impl Edge {
    /// A fresh edge for `mv` with an information bonus.
    pub fn new(mv: Move, bonus: f32) -> Edge {
        Edge { mv, visits: 0, wins: 0.0, illegal: 0, bonus, children: [0; 3] }
    }

    /// Mean reward (0.5 before any visit).
    pub fn value(&self) -> f32 {
        if self.visits == 0 {
            0.5
        } else {
            self.wins / self.visits as f32
        }
    }

    /// The child for an outcome (0 = none).
    pub fn child(&self, key: OutcomeKey) -> u32 {
        self.children[key as usize]
    }
}

/// A decision node: our turn, with one edge per try considered.
#[derive(Clone, Debug, Default)]
pub struct Node {
    /// Tries.
    pub edges: Vec<Edge>,
    /// Visits through this node.
    pub visits: u32,
    /// Turns from the root (0 = the root's turn, including its illegal-try retries).
    pub turn_depth: u16,
}

/// An arena of nodes; index 0 is the root.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    /// The nodes.
    pub nodes: Vec<Node>,
}

impl Tree {
    /// A tree with only `root`.
    pub fn new(root: Node) -> Tree {
        Tree { nodes: vec![root] }
    }

    /// Adds a node and returns its index.
    pub fn push(&mut self, node: Node) -> u32 {
        self.nodes.push(node);
        (self.nodes.len() - 1) as u32
    }

    /// Picks the edge of `node` with the best UCB score plus information bonus; unvisited edges first
    /// (largest bonus first, ties broken by `tie_break`).
    pub fn select(&self, node: u32, exploration: f32, tie_break: u32) -> usize {
        let node = &self.nodes[node as usize];
        let edges = &node.edges;
        let log_n = ((node.visits.max(1)) as f32).ln();
        let mut best = 0;
        let mut best_score = f32::NEG_INFINITY;
        let n = edges.len().max(1);
        let start = tie_break as usize % n;
        for k in 0..edges.len() {
            let i = (start + k) % n;
            let edge = &edges[i];
            let score = if edge.visits == 0 {
                1e6 + edge.bonus
            } else {
                edge.value() + exploration * (log_n / edge.visits as f32).sqrt() + edge.bonus
            };
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        best
    }
}
