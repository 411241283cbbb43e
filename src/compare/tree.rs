//! The divergence tree of one seed (for `meeplab trace`): a `petgraph` DAG in which rulesets
//! share a node for every turn they played identically, and split at the turn they differ.
//! Exported as Graphviz DOT.
//!
//! Input: per ruleset, its per-turn `(running hash, label)` list, index 0 being the set-up.
//! Because the hashes are running hashes, two rulesets that differ once never share a node
//! again, so the graph is a tree rooted at a virtual `start` node.

use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::Direction;
use std::fmt::Write as _;

/// One shared game state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeNode {
    /// Turn index (0 = set-up); `None` for the root.
    pub turn: Option<usize>,
    pub hash: u64,
    /// Label of the first ruleset that reached this node (identical play, so any would do).
    pub label: String,
    /// Indices (into the input) of the rulesets passing through this node.
    pub rulesets: Vec<usize>,
}

/// The tree and the ruleset names it refers to.
#[derive(Clone, Debug)]
pub struct DivergenceTree {
    pub graph: DiGraph<TreeNode, ()>,
    pub root: NodeIndex,
    pub names: Vec<String>,
}

/// Builds the divergence tree of `rulesets` (name, per-turn `(hash, label)`).
pub fn divergence_tree(rulesets: &[(String, Vec<(u64, String)>)]) -> DivergenceTree {
    let mut graph = DiGraph::new();
    let root = graph.add_node(TreeNode {
        turn: None,
        hash: 0,
        label: "start".to_string(),
        rulesets: (0..rulesets.len()).collect(),
    });
    for (r, (_, turns)) in rulesets.iter().enumerate() {
        let mut at = root;
        for (t, (hash, label)) in turns.iter().enumerate() {
            let existing = graph
                .neighbors_directed(at, Direction::Outgoing)
                .find(|&n| graph[n].hash == *hash);
            at = match existing {
                Some(n) => {
                    graph[n].rulesets.push(r);
                    n
                }
                None => {
                    let n = graph.add_node(TreeNode {
                        turn: Some(t),
                        hash: *hash,
                        label: label.clone(),
                        rulesets: vec![r],
                    });
                    graph.add_edge(at, n, ());
                    n
                }
            };
        }
    }
    DivergenceTree {
        graph,
        root,
        names: rulesets.iter().map(|(n, _)| n.clone()).collect(),
    }
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

impl DivergenceTree {
    /// The first turn at which the rulesets do not all share a node (`None`: identical games).
    pub fn first_split(&self) -> Option<usize> {
        let all = self.names.len();
        let mut at = self.root;
        loop {
            let children: Vec<NodeIndex> = self
                .graph
                .neighbors_directed(at, Direction::Outgoing)
                .collect();
            match children.as_slice() {
                [] => return None,
                [only] if self.graph[*only].rulesets.len() == all => at = *only,
                _ => return Some(self.graph[at].turn.map_or(0, |t| t + 1)),
            }
        }
    }

    /// Graphviz DOT. Runs of turns shared by the same rulesets are collapsed into one box
    /// ("turns 1–17") unless `full` is set; every split point and leaf is kept.
    pub fn to_dot(&self, full: bool) -> String {
        let g = &self.graph;
        let out_degree = |n: NodeIndex| g.neighbors_directed(n, Direction::Outgoing).count();
        // A box starts at the root, at each child of the root and at each child of a split;
        // it extends down its chain of single children.
        let shown = |n: NodeIndex| -> bool {
            if full || n == self.root {
                return true;
            }
            match g.neighbors_directed(n, Direction::Incoming).next() {
                Some(p) => p == self.root || out_degree(p) != 1,
                None => true,
            }
        };
        let names = |n: NodeIndex| -> String {
            g[n].rulesets
                .iter()
                .map(|&r| self.names[r].as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut dot = String::from(
            "digraph divergence {\n  rankdir=TB;\n  node [shape=box, fontname=\"DejaVu Sans\"];\n",
        );
        // Depth-first from the root, collapsing unshown chains into the shown node above.
        let mut stack = vec![(self.root, self.root)];
        while let Some((n, shown_parent)) = stack.pop() {
            let mut head = n;
            let mut last = n;
            if shown(n) {
                // Extend over the collapsed chain below `n`.
                let mut cur = n;
                while out_degree(cur) == 1 {
                    let next = g
                        .neighbors_directed(cur, Direction::Outgoing)
                        .next()
                        .unwrap();
                    if shown(next) {
                        break;
                    }
                    cur = next;
                }
                last = cur;
                let turns = match (g[n].turn, g[last].turn) {
                    (None, _) => "start".to_string(),
                    (Some(a), Some(b)) if a != b => format!("turns {a}–{b}"),
                    (Some(a), _) => format!("turn {a}"),
                };
                let label = if g[n].turn.is_none() {
                    format!("start\\n[{}]", dot_escape(&names(n)))
                } else {
                    format!(
                        "{}: {}\\n[{}]",
                        turns,
                        dot_escape(&g[last].label),
                        dot_escape(&names(n))
                    )
                };
                let _ = writeln!(dot, "  n{} [label=\"{}\"];", n.index(), label);
                if n != self.root {
                    let _ = writeln!(dot, "  n{} -> n{};", shown_parent.index(), n.index());
                }
                head = n;
            }
            let mut children: Vec<NodeIndex> =
                g.neighbors_directed(last, Direction::Outgoing).collect();
            children.sort_unstable_by_key(|c| std::cmp::Reverse(c.index()));
            for c in children {
                stack.push((c, head));
            }
        }
        dot.push_str("}\n");
        dot
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turns(hashes: &[u64]) -> Vec<(u64, String)> {
        hashes.iter().map(|h| (*h, format!("h{h}"))).collect()
    }

    fn compact_has(tree: &DivergenceTree, s: &str) -> bool {
        tree.to_dot(false).contains(s)
    }

    #[test]
    fn rulesets_share_nodes_until_they_differ() {
        let input = vec![
            ("A".to_string(), turns(&[1, 2, 3, 4])),
            ("B".to_string(), turns(&[1, 2, 3, 4])),
            ("C".to_string(), turns(&[1, 2, 9, 10])),
        ];
        let tree = divergence_tree(&input);
        // root + 4 shared by A/B (1, 2 also by C) + 2 of C.
        assert_eq!(tree.graph.node_count(), 7);
        assert_eq!(tree.first_split(), Some(2));
        let dot = tree.to_dot(true);
        assert!(dot.starts_with("digraph divergence {"));
        assert!(dot.contains("[A, B, C]"));
        assert!(dot.contains("turn 2: h9\\n[C]"));
        assert!(compact_has(&tree, "turns 0–1: h2\\n[A, B, C]"));
        let compact = tree.to_dot(false);
        assert!(compact.contains("turns 2–3: h4\\n[A, B]"), "{compact}");
        let same = divergence_tree(&input[..2]);
        assert_eq!(same.first_split(), None);
    }
}
