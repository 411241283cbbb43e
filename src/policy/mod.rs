//! Seeded player policies (random, greedy) that pick among a decision's legal options.
