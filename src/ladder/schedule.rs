//! Who sits where: the tables and seat rotations of one deal (see the format in the
//! [`crate::ladder`] module doc), and the comparisons each game makes between policies.

/// The most games one deal may take (tables × players); more is refused as a usage error.
pub const MAX_GAMES_PER_DEAL: usize = 1000;

/// The seatings of one deal, the same for every deal of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub policies: usize,
    pub players: u8,
    /// `tables[t][slot]` = the policy index in that slot.
    pub tables: Vec<Vec<usize>>,
    /// Every pair `(i, j)` of policy indices with `i < j`, in lexicographic order.
    pub pairs: Vec<(usize, usize)>,
    /// Comparisons of each pair in one deal (same order as `pairs`).
    pub comparisons_per_deal: Vec<u32>,
    /// Seat-games each policy plays in one deal.
    pub seat_games_per_deal: Vec<u32>,
}

/// All `k`-element combinations of `0..n`, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current: Vec<usize> = (0..k).collect();
    if k > n {
        return out;
    }
    loop {
        out.push(current.clone());
        // The rightmost position that can still move up.
        let Some(i) = (0..k).rev().find(|&i| current[i] < n - k + i) else {
            return out;
        };
        current[i] += 1;
        for j in i + 1..k {
            current[j] = current[j - 1] + 1;
        }
    }
}

/// `C(n, k)`, saturating.
fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut c: usize = 1;
    for i in 0..k {
        c = c.saturating_mul(n - i) / (i + 1);
    }
    c
}

impl Schedule {
    /// The schedule for `policies` policies at `players` seats, or why it is too large.
    pub fn new(policies: usize, players: u8) -> Result<Schedule, String> {
        let p = players as usize;
        let tables = if policies >= p {
            let games = binomial(policies, p).saturating_mul(p);
            if games > MAX_GAMES_PER_DEAL {
                return Err(format!(
                    "{policies} policies at {players} players need {games} games per deal \
                     (every table of {players} policies, each seating); at most \
                     {MAX_GAMES_PER_DEAL} are allowed"
                ));
            }
            combinations(policies, p)
        } else {
            vec![(0..p).map(|k| k % policies).collect()]
        };
        let pairs: Vec<(usize, usize)> = (0..policies)
            .flat_map(|i| (i + 1..policies).map(move |j| (i, j)))
            .collect();
        let mut schedule = Schedule {
            policies,
            players,
            tables,
            pairs,
            comparisons_per_deal: Vec::new(),
            seat_games_per_deal: vec![0; policies],
        };
        schedule.comparisons_per_deal = vec![0; schedule.pairs.len()];
        let mut seats = vec![0; p];
        for g in 0..schedule.games_per_deal() {
            schedule.seating(g, &mut seats);
            for &policy in &seats {
                schedule.seat_games_per_deal[policy] += 1;
            }
            for (a, b) in seat_pairs(p) {
                if let Some(k) = schedule.pair_index(seats[a], seats[b]) {
                    schedule.comparisons_per_deal[k] += 1;
                }
            }
        }
        Ok(schedule)
    }

    /// Games in one deal: every table once per rotation.
    pub fn games_per_deal(&self) -> usize {
        self.tables.len() * self.players as usize
    }

    /// Fills `seats[s]` with the policy index at seat `s` in game `game` of a deal:
    /// table `game / P`, rotation `game % P`, seat `s` holds slot `(s + rotation) mod P`.
    pub fn seating(&self, game: usize, seats: &mut [usize]) {
        let p = self.players as usize;
        let table = &self.tables[game / p];
        let rotation = game % p;
        for (s, seat) in seats.iter_mut().enumerate().take(p) {
            *seat = table[(s + rotation) % p];
        }
    }

    /// The index in `pairs` of the pair of policies `a` and `b` (either order); `None` when
    /// `a == b` (a policy is not compared with itself at one table).
    pub fn pair_index(&self, a: usize, b: usize) -> Option<usize> {
        if a == b {
            return None;
        }
        let (i, j) = (a.min(b), a.max(b));
        // Pairs (i, ·) start after all pairs of smaller first index.
        let n = self.policies;
        Some(i * (2 * n - i - 1) / 2 + (j - i - 1))
    }
}

/// Every two seats `(a, b)` with `a < b` of a `players`-seat game.
pub fn seat_pairs(players: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..players).flat_map(move |a| (a + 1..players).map(move |b| (a, b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seatings(s: &Schedule) -> Vec<Vec<usize>> {
        (0..s.games_per_deal())
            .map(|g| {
                let mut seats = vec![0; s.players as usize];
                s.seating(g, &mut seats);
                seats
            })
            .collect()
    }

    #[test]
    fn two_policies_two_players_swap_seats() {
        let s = Schedule::new(2, 2).unwrap();
        assert_eq!(seatings(&s), [[0, 1], [1, 0]]);
        assert_eq!(s.pairs, [(0, 1)]);
        assert_eq!(s.comparisons_per_deal, [2]);
        assert_eq!(s.seat_games_per_deal, [2, 2]);
    }

    #[test]
    fn more_policies_than_seats_play_a_round_robin() {
        let s = Schedule::new(3, 2).unwrap();
        assert_eq!(
            seatings(&s),
            [[0, 1], [1, 0], [0, 2], [2, 0], [1, 2], [2, 1]]
        );
        assert_eq!(s.pairs, [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(s.comparisons_per_deal, [2, 2, 2]);
        assert_eq!(s.seat_games_per_deal, [4, 4, 4]);
        // Four policies at three seats: C(4,3) = 4 tables × 3 rotations.
        let s = Schedule::new(4, 3).unwrap();
        assert_eq!(s.games_per_deal(), 12);
        assert_eq!(s.tables[0], [0, 1, 2]);
        assert_eq!(s.tables[3], [1, 2, 3]);
        // Each pair shares two tables, 3 rotations each: 6 comparisons.
        assert_eq!(s.comparisons_per_deal, [6; 6]);
        assert_eq!(s.seat_games_per_deal, [9; 4]);
    }

    #[test]
    fn every_policy_sits_in_every_seat() {
        for (n, p) in [(2, 2), (3, 2), (3, 3), (4, 3), (2, 4), (3, 5), (5, 5)] {
            let s = Schedule::new(n, p).unwrap();
            let games = seatings(&s);
            for policy in 0..n {
                for seat in 0..p as usize {
                    assert!(
                        games.iter().any(|g| g[seat] == policy),
                        "{n} policies, {p} players: policy {policy} never in seat {seat}"
                    );
                }
            }
        }
    }

    #[test]
    fn fewer_policies_than_seats_cycle_through_the_slots() {
        let s = Schedule::new(2, 4).unwrap();
        assert_eq!(
            seatings(&s),
            [[0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 1, 0]]
        );
        // Per game four of the six seat pairs hold different policies.
        assert_eq!(s.comparisons_per_deal, [16]);
    }

    #[test]
    fn pair_indices_follow_the_pair_list() {
        let s = Schedule::new(5, 2).unwrap();
        for (k, &(i, j)) in s.pairs.iter().enumerate() {
            assert_eq!(s.pair_index(i, j), Some(k));
            assert_eq!(s.pair_index(j, i), Some(k));
        }
        assert_eq!(s.pair_index(3, 3), None);
    }

    #[test]
    fn oversized_schedules_are_refused() {
        assert_eq!(binomial(10, 5), 252);
        let err = Schedule::new(12, 6).unwrap_err();
        assert!(err.contains("5544 games per deal"), "{err}");
        assert_eq!(combinations(4, 2).len(), 6);
        assert!(combinations(2, 3).is_empty());
    }
}
