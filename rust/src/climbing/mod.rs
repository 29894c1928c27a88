//! The climbing games: `big-two-4card`, `big-two` and `pusoy-dos`.
