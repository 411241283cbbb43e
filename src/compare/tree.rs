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

/// Events (label lines) shown in a branch box at most.
const BRANCH_EVENTS: usize = 8;

/// What this branch did differently in the turn it split off: the lines of `n`'s label that
/// some sibling under `parent` does not have; when it has none of its own, the sibling lines
/// it lacks ("without: …"); when the narrated events are the same, that the position differs.
/// Lines every branch shares are never repeated.
fn differing_events(g: &DiGraph<TreeNode, ()>, parent: NodeIndex, n: NodeIndex) -> String {
    let siblings: Vec<NodeIndex> = g
        .neighbors_directed(parent, Direction::Outgoing)
        .filter(|&s| s != n)
        .collect();
    let own: Vec<&str> = g[n].label.lines().collect();
    let mut lines: Vec<String> = own
        .iter()
        .filter(|l| {
            siblings
                .iter()
                .any(|&s| !g[s].label.lines().any(|o| o == **l))
        })
        .map(|l| l.to_string())
        .collect();
    if lines.is_empty() {
        let mut lacked: Vec<&str> = Vec::new();
        for &s in &siblings {
            for l in g[s].label.lines() {
                if !own.contains(&l) && !lacked.contains(&l) {
                    lacked.push(l);
                }
            }
        }
        lines = lacked.iter().map(|l| format!("without: {l}")).collect();
    }
    if lines.is_empty() {
        lines.push("the same events; the position differs".to_string());
    }
    let extra = lines.len().saturating_sub(BRANCH_EVENTS);
    let mut text = lines[..lines.len().min(BRANCH_EVENTS)].join("\n");
    if extra > 0 {
        text.push_str(&format!("\n… {extra} more"));
    }
    text
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
    /// ("turns 1–17") unless `full` is set; every split point and leaf is kept. A box after
    /// a split is labelled with the events of its first turn that differ from its siblings'.
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
                let parent = g.neighbors_directed(n, Direction::Incoming).next();
                let label = match (g[n].turn, parent) {
                    (None, _) | (_, None) => format!("start\\n[{}]", dot_escape(&names(n))),
                    // the trunk every ruleset shares: no events worth singling out
                    (Some(_), Some(p)) if p == self.root && out_degree(p) == 1 => {
                        format!("{turns}: identical\\n[{}]", dot_escape(&names(n)))
                    }
                    // a branch: the events of its first turn that its siblings did not have
                    (Some(a), Some(p)) => {
                        let events = differing_events(g, p, n);
                        let more = if last != n {
                            format!("\\n(then to turn {})", g[last].turn.unwrap_or(a))
                        } else {
                            String::new()
                        };
                        format!(
                            "turn {a}: {}{more}\\n[{}]",
                            dot_escape(&events),
                            dot_escape(&names(n))
                        )
                    }
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
    fn a_branch_box_lists_only_the_events_its_siblings_lack() {
        let shared = "Anna places BA/Cc at (1,0)".to_string();
        let input = vec![
            (
                "A".to_string(),
                vec![
                    (1, "set-up".to_string()),
                    (2, format!("{shared}\nAnna scores 4")),
                ],
            ),
            (
                "B".to_string(),
                vec![
                    (1, "set-up".to_string()),
                    (3, format!("{shared}\nAnna scores 6")),
                ],
            ),
        ];
        let dot = divergence_tree(&input).to_dot(false);
        assert!(dot.contains("turn 1: Anna scores 4\\n[A]"), "{dot}");
        assert!(dot.contains("turn 1: Anna scores 6\\n[B]"), "{dot}");
        assert!(!dot.contains("BA/Cc"), "{dot}");
    }

    /// A branch whose events are all among its sibling's says what it lacks instead of
    /// repeating the shared events (issue 43).
    #[test]
    fn a_branch_with_fewer_events_says_what_it_lacks() {
        let shared = "Blue draws BA/CccR+\nBlue takes an ingot from (-1,3)".to_string();
        let input = [
            (
                "A".to_string(),
                vec![
                    (1, "set-up".to_string()),
                    (2, format!("{shared}\nBlue takes an ingot from (-1,4)")),
                ],
            ),
            (
                "B".to_string(),
                vec![(1, "set-up".to_string()), (3, shared)],
            ),
            (
                "C".to_string(),
                vec![
                    (1, "set-up".to_string()),
                    (
                        4,
                        "Blue draws BA/CccR+\nBlue takes an ingot from (-1,3)".into(),
                    ),
                ],
            ),
        ];
        let dot = divergence_tree(&input[..2]).to_dot(false);
        assert!(
            dot.contains("turn 1: Blue takes an ingot from (-1,4)\\n[A]"),
            "{dot}"
        );
        assert!(
            dot.contains("turn 1: without: Blue takes an ingot from (-1,4)\\n[B]"),
            "{dot}"
        );
        assert!(!dot.contains("BA/CccR+"), "{dot}");
        // B and C narrate the same events and differ in the position only
        let dot = divergence_tree(&input[1..]).to_dot(false);
        assert!(
            dot.contains("turn 1: the same events; the position differs\\n[C]"),
            "{dot}"
        );
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
        assert!(compact_has(&tree, "turns 0–1: identical\\n[A, B, C]"));
        let compact = tree.to_dot(false);
        // each branch box shows the turn it split off in, not the end of its chain
        assert!(
            compact.contains("turn 2: h3\\n(then to turn 3)\\n[A, B]"),
            "{compact}"
        );
        assert!(
            compact.contains("turn 2: h9\\n(then to turn 3)\\n[C]"),
            "{compact}"
        );
        assert!(!compact.contains("h4"), "{compact}");
        let same = divergence_tree(&input[..2]);
        assert_eq!(same.first_split(), None);
    }
}
