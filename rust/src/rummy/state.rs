//! One rummy deal: draw, meld and lay off, discard; scoring; what each seat sees.
//!
//! Actions are the packed ints of the Python package: bits 0-2 the kind, bits 3-54 the cards
//! (a rummy-layout mask), bits 55 and up the 0-based table meld of a lay-off.

use crate::sim::Rng;

use super::melds::{
    FULL, ROW, extensions, group_mask, group_subsets, is_group, is_meld, mask_value, runs,
    suits_of_rank, takes, triple_ranks,
};

pub const DRAW_STOCK: u64 = 0;
pub const DRAW_DISCARD: u64 = 1;
pub const MELD: u64 = 2;
pub const LAYOFF: u64 = 3;
pub const DISCARD: u64 = 4;
pub const KIND_BITS: u32 = 3;
pub const TARGET_SHIFT: u32 = 55;
/// The seat to move once the deal is over.
pub const TERMINAL: i8 = -1;
pub const MAX_SEATS: usize = 4;
/// More melds than 52 cards can make (each has three or more).
pub const MAX_MELDS: usize = 17;
/// The largest score, either way, a position may start from (as the Python package's positions
/// allow): a deal adds or takes away at most every card's points, so no sum wraps.
pub const SCORE_LIMIT: i64 = 1 << 62;

/// The packed action of a kind, cards and lay-off target.
pub const fn action(kind: u64, cards: u64, target: u64) -> u64 {
    kind | cards << KIND_BITS | target << TARGET_SHIFT
}

/// Whether `value` packs a move that the notation could name (legal or not).
pub fn is_move(value: u64) -> bool {
    let kind = value & 7;
    let cards = value >> KIND_BITS;
    match kind {
        DRAW_STOCK | DRAW_DISCARD => value == kind,
        MELD => cards != 0 && cards <= FULL,
        LAYOFF => cards & FULL != 0,
        DISCARD => cards <= FULL && cards.count_ones() == 1,
        _ => false,
    }
}

/// The options that change the rules of a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub players: u8,
    /// The card taken from the discard pile may not be discarded in the same turn.
    pub forbid_discard_of_drawn_discard: bool,
    /// Melded cards score for the melder.
    pub score_melds: bool,
    /// Turns after which a deal with nobody out ends blocked.
    pub turn_limit: u64,
}

/// Why an action was refused; the Python package words the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The deal is over.
    Over,
    /// A draw after this turn's draw.
    AlreadyDrawn,
    /// A value no move has.
    Unmade,
    /// Draw stock with the stock empty.
    StockEmpty,
    /// Draw discard with the pile empty.
    PileEmpty,
    /// Anything but a draw at the start of a turn.
    MustDraw,
    /// The cards the player does not hold.
    NotHeld(u64),
    /// These cards are no meld.
    NotMeld(u64),
    /// A lay-off on a meld not on the table.
    NoMeld,
    /// The meld a lay-off would make, which is not one.
    BadLayoff(u64),
    /// Discarding the card taken from the discard pile (rummy-layout bit), under the option.
    DiscardTaken(u8),
    /// A meld or lay-off leaving only the taken card (rummy-layout bit), under the option.
    Strands(u8),
}

impl Illegal {
    /// A number for the kind of refusal (1 up) and its card mask or card.
    pub fn code(self) -> (u64, u64) {
        match self {
            Illegal::Over => (1, 0),
            Illegal::AlreadyDrawn => (2, 0),
            Illegal::Unmade => (3, 0),
            Illegal::StockEmpty => (4, 0),
            Illegal::PileEmpty => (5, 0),
            Illegal::MustDraw => (6, 0),
            Illegal::NotHeld(m) => (7, m),
            Illegal::NotMeld(m) => (8, m),
            Illegal::NoMeld => (9, 0),
            Illegal::BadLayoff(m) => (10, m),
            Illegal::DiscardTaken(c) => (11, u64::from(c)),
            Illegal::Strands(c) => (12, u64::from(c)),
        }
    }
}

/// A position, as the Python package checks and gives it (cards as rummy-layout bits).
#[derive(Clone, Debug, Default)]
pub struct Parts {
    pub hands: Vec<u64>,
    /// Bottom first: the top is the last.
    pub stock: Vec<u8>,
    /// Bottom first: the top is the last.
    pub pile: Vec<u8>,
    pub melds: Vec<u64>,
    pub placed: Vec<u64>,
    pub scores: Vec<i64>,
    pub taken: Vec<u64>,
    pub current: i8,
    pub drawing: bool,
    /// The card drawn this turn and still held, or -1.
    pub drawn: i8,
    pub drawn_from_discard: bool,
    pub turn: u64,
    /// Over, and who went out (-1: blocked); `None` while the deal goes on.
    pub ended: Option<i8>,
}

/// One deal. Fixed-size arrays only: a clone is a copy, a move allocates nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    rules: Rules,
    hands: [u64; MAX_SEATS],
    taken: [u64; MAX_SEATS],
    placed: [u64; MAX_SEATS],
    /// Every card each seat discarded this deal (public), for the learned network's encoding:
    /// the moves of this state add to it, and a search's worlds start from the observation's.
    discarded: [u64; MAX_SEATS],
    scores: [i64; MAX_SEATS],
    melds: [u64; MAX_MELDS],
    stock: [u8; 52],
    pile: [u8; 52],
    turn: u64,
    n_melds: u8,
    stock_len: u8,
    pile_len: u8,
    current: i8,
    drawn: i8,
    went_out: i8,
    drawing: bool,
    drawn_from_discard: bool,
}

/// What every seat sees alike.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicView {
    pub current: i8,
    pub hand_sizes: Vec<u32>,
    /// 0 draw, 1 play, 2 over.
    pub phase: u8,
    pub melds: Vec<u64>,
    pub placed: Vec<u64>,
    pub pile: Vec<u8>,
    pub taken: Vec<u64>,
    pub scores: Vec<i64>,
    pub stock_size: u32,
    pub turn: u64,
    pub went_out: i8,
    /// Every hand once the deal is over; empty before.
    pub shown: Vec<u64>,
}

impl State {
    fn empty(rules: Rules) -> State {
        State {
            rules,
            hands: [0; MAX_SEATS],
            taken: [0; MAX_SEATS],
            placed: [0; MAX_SEATS],
            discarded: [0; MAX_SEATS],
            scores: [0; MAX_SEATS],
            melds: [0; MAX_MELDS],
            stock: [0; 52],
            pile: [0; 52],
            turn: 0,
            n_melds: 0,
            stock_len: 0,
            pile_len: 0,
            current: 0,
            drawn: -1,
            went_out: -1,
            drawing: true,
            drawn_from_discard: false,
        }
    }

    fn check_rules(rules: &Rules) -> Result<(), &'static str> {
        if !(2..=MAX_SEATS as u8).contains(&rules.players) || rules.turn_limit == 0 {
            return Err("rummy: 2 to 4 players and a turn limit of 1 or more");
        }
        Ok(())
    }

    /// A deal from `deck` (rummy-layout bits, top first): `hand_size` cards to each seat in
    /// turn, the next card face up on the discard pile, the rest the stock.
    pub fn deal(rules: Rules, deck: &[u8], hand_size: usize) -> Result<State, &'static str> {
        Self::check_rules(&rules)?;
        let n = usize::from(rules.players);
        if deck.len() != 52 || deck.iter().fold(0u64, |m, &c| m | 1u64 << (c & 63)) != FULL {
            return Err("a deck is the 52 cards, each once");
        }
        // Checked: a hand size from the caller may be anything a usize holds.
        let dealt = match n.checked_mul(hand_size) {
            Some(dealt) if dealt < 52 => dealt,
            _ => return Err("too many cards dealt for the deck"),
        };
        let mut s = State::empty(rules);
        for (i, &c) in deck[..dealt].iter().enumerate() {
            s.hands[i % n] |= 1 << c;
        }
        s.pile[0] = deck[dealt];
        s.pile_len = 1;
        for &c in deck[n * hand_size + 1..].iter().rev() {
            s.stock[usize::from(s.stock_len)] = c;
            s.stock_len += 1;
        }
        Ok(s)
    }

    /// A position from its parts, refused (never a panic) when they do not fit a deal.
    pub fn from_parts(rules: Rules, parts: &Parts) -> Result<State, &'static str> {
        Self::check_rules(&rules)?;
        let n = usize::from(rules.players);
        let seats = [
            parts.hands.len(),
            parts.placed.len(),
            parts.scores.len(),
            parts.taken.len(),
        ];
        if seats.iter().any(|&len| len != n) {
            return Err("one hand, placed set, score and taken set per seat");
        }
        if parts.melds.len() > MAX_MELDS || parts.stock.len() > 52 || parts.pile.len() > 52 {
            return Err("too many cards or melds");
        }
        let masks = parts.hands.iter().chain(&parts.melds).chain(&parts.placed);
        if masks.chain(&parts.taken).any(|&m| m & !FULL != 0)
            || parts.stock.iter().chain(&parts.pile).any(|&c| c >= 52)
        {
            return Err("a card outside the deck");
        }
        if parts
            .scores
            .iter()
            .any(|s| !(-SCORE_LIMIT..=SCORE_LIMIT).contains(s))
        {
            return Err("a score past 2**62 either way");
        }
        if parts.current < TERMINAL || parts.current >= rules.players as i8 {
            return Err("the player to move is not a seat");
        }
        if parts.drawn < -1 || parts.drawn >= 52 {
            return Err("the drawn card is not a card");
        }
        if parts
            .ended
            .is_some_and(|w| w < -1 || w >= rules.players as i8)
        {
            return Err("the seat that went out is not a seat");
        }
        let mut s = State::empty(rules);
        s.hands[..n].copy_from_slice(&parts.hands);
        s.taken[..n].copy_from_slice(&parts.taken);
        s.placed[..n].copy_from_slice(&parts.placed);
        s.scores[..n].copy_from_slice(&parts.scores);
        s.melds[..parts.melds.len()].copy_from_slice(&parts.melds);
        s.n_melds = parts.melds.len() as u8;
        s.stock[..parts.stock.len()].copy_from_slice(&parts.stock);
        s.stock_len = parts.stock.len() as u8;
        s.pile[..parts.pile.len()].copy_from_slice(&parts.pile);
        s.pile_len = parts.pile.len() as u8;
        s.current = parts.current;
        s.drawing = parts.drawing;
        s.drawn = parts.drawn;
        s.drawn_from_discard = parts.drawn_from_discard;
        s.turn = parts.turn;
        if let Some(went_out) = parts.ended {
            s.end(went_out);
        }
        Ok(s)
    }

    // -- reading ------------------------------------------------------------------------------
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn players(&self) -> usize {
        usize::from(self.rules.players)
    }

    /// The seat to move, or [`TERMINAL`].
    pub fn current_player(&self) -> i8 {
        self.current
    }

    pub fn is_over(&self) -> bool {
        self.current == TERMINAL
    }

    pub fn drawing(&self) -> bool {
        self.drawing
    }

    pub fn went_out(&self) -> i8 {
        self.went_out
    }

    pub fn turn(&self) -> u64 {
        self.turn
    }

    pub fn hand(&self, seat: usize) -> u64 {
        self.hands[seat]
    }

    /// Bottom first.
    pub fn stock(&self) -> &[u8] {
        &self.stock[..usize::from(self.stock_len)]
    }

    /// Bottom first.
    pub fn pile(&self) -> &[u8] {
        &self.pile[..usize::from(self.pile_len)]
    }

    pub fn melds(&self) -> &[u64] {
        &self.melds[..usize::from(self.n_melds)]
    }

    pub fn placed(&self) -> &[u64] {
        &self.placed[..self.players()]
    }

    pub fn scores(&self) -> &[i64] {
        &self.scores[..self.players()]
    }

    pub fn taken(&self) -> &[u64] {
        &self.taken[..self.players()]
    }

    /// Every card each seat discarded: those discarded in this state's moves, and those set
    /// by [`State::set_discarded`].
    pub fn discarded(&self) -> &[u64] {
        &self.discarded[..self.players()]
    }

    /// Sets each seat's discards before this position (a position made from its parts knows
    /// only the moves played since); refused unless one set of cards per seat.
    pub fn set_discarded(&mut self, discarded: &[u64]) -> Result<(), &'static str> {
        if discarded.len() != self.players() || discarded.iter().any(|&d| d & !FULL != 0) {
            return Err("one set of discarded cards per seat");
        }
        self.discarded[..discarded.len()].copy_from_slice(discarded);
        Ok(())
    }

    pub fn hands(&self) -> &[u64] {
        &self.hands[..self.players()]
    }

    /// The card drawn this turn and still held (-1: none), and whether from the discard pile.
    pub fn drawn(&self) -> (i8, bool) {
        (self.drawn, self.drawn_from_discard)
    }

    /// Each seat's result once the deal is over: its score less its hand.
    pub fn returns(&self) -> Option<Vec<i64>> {
        self.is_over().then(|| {
            (0..self.players())
                .map(|i| self.scores[i] - mask_value(self.hands[i]))
                .collect()
        })
    }

    /// The stock, the discard pile and the table as masks.
    pub fn zone_masks(&self) -> (u64, u64, u64) {
        let bits = |cards: &[u8]| cards.iter().fold(0u64, |m, &c| m | 1 << c);
        let table = self.melds().iter().fold(0, |m, &x| m | x);
        (bits(self.stock()), bits(self.pile()), table)
    }

    /// The cards `seat` cannot see where they are: the stock and, while the deal goes on, the
    /// other hands less the cards they took from the discard pile.
    pub fn hidden_from(&self, seat: usize) -> u64 {
        let mut hidden = self.zone_masks().0;
        if !self.is_over() {
            for i in (0..self.players()).filter(|&i| i != seat) {
                hidden |= self.hands[i] & !self.taken[i];
            }
        }
        hidden
    }

    /// What every seat sees alike.
    pub fn public_view(&self) -> PublicView {
        let over = self.is_over();
        PublicView {
            current: self.current,
            hand_sizes: self.hands().iter().map(|h| h.count_ones()).collect(),
            phase: if over { 2 } else { u8::from(!self.drawing) },
            melds: self.melds().to_vec(),
            placed: self.placed().to_vec(),
            pile: self.pile().to_vec(),
            taken: self.taken().to_vec(),
            scores: self.scores().to_vec(),
            stock_size: u32::from(self.stock_len),
            turn: self.turn,
            went_out: self.went_out,
            shown: if over {
                self.hands().to_vec()
            } else {
                Vec::new()
            },
        }
    }

    /// What `seat` alone sees: its hand, and the card the player to move drew this turn when
    /// `seat` may know it (the drawer always, everyone when it came from the discard pile).
    pub fn seat_view(&self, seat: usize) -> (u64, i8) {
        let drawn = if self.drawn >= 0 && (self.drawn_from_discard || seat as i8 == self.current) {
            self.drawn
        } else {
            -1
        };
        (self.hands[seat], drawn)
    }

    pub fn hand_value(&self, seat: usize) -> i64 {
        mask_value(self.hands[seat])
    }

    /// Whether the stock is empty at the start of a turn with discards under the top card: the
    /// stock must then be rebuilt (see [`State::rebuild`]) before the next draw.
    pub fn needs_rebuild(&self) -> bool {
        !self.is_over() && self.drawing && self.stock_len == 0 && self.pile_len >= 2
    }

    /// The new stock after a rebuild: the discards but the top one, in `order` (bottom first),
    /// which must hold exactly those cards.
    pub fn rebuild(&mut self, order: &[u8]) -> Result<(), &'static str> {
        let under = &self.pile[..usize::from(self.pile_len.saturating_sub(1))];
        let mut sorted_under = under.to_vec();
        let mut sorted_order = order.to_vec();
        sorted_under.sort_unstable();
        sorted_order.sort_unstable();
        if !self.needs_rebuild() || sorted_under != sorted_order {
            return Err("a rebuild shuffles the discards under the top card");
        }
        self.stock[..order.len()].copy_from_slice(order);
        self.stock_len = order.len() as u8;
        self.pile[0] = self.pile[usize::from(self.pile_len) - 1];
        self.pile_len = 1;
        Ok(())
    }

    /// [`State::rebuild`] with the order drawn from `rng` (simulation's chance event), in place
    /// and without allocating; false (nothing changed) when no rebuild is due.
    pub fn rebuild_shuffled(&mut self, rng: &mut Rng) -> bool {
        if !self.needs_rebuild() {
            return false;
        }
        let under = usize::from(self.pile_len) - 1;
        self.stock[..under].copy_from_slice(&self.pile[..under]);
        rng.shuffle(&mut self.stock[..under]);
        self.stock_len = under as u8;
        self.pile[0] = self.pile[under];
        self.pile_len = 1;
        true
    }

    /// Gives `card` (a rummy-layout bit below 52) to `seat`'s hand: a sampled world's hidden
    /// cards. The caller keeps every card in one place.
    pub(crate) fn give(&mut self, seat: usize, card: u8) {
        self.hands[seat] |= 1 << card;
    }

    /// Sets the stock (bottom first, at most 52 cards): a sampled world's. The caller keeps
    /// every card in one place.
    pub(crate) fn set_stock(&mut self, cards: &[u8]) {
        let n = cards.len().min(52);
        self.stock[..n].copy_from_slice(&cards[..n]);
        self.stock_len = n as u8;
    }

    // -- legal actions ------------------------------------------------------------------------
    /// Every legal action, in the Python engine's order, into `out` (cleared first).
    pub fn legal_actions(&self, out: &mut Vec<u64>) {
        out.clear();
        if self.is_over() {
            return;
        }
        if self.drawing {
            if self.stock_len > 0 {
                out.push(DRAW_STOCK);
                if self.pile_len > 0 {
                    out.push(DRAW_DISCARD);
                }
            } else {
                out.push(DRAW_DISCARD);
            }
            return;
        }
        let hand = self.hands[self.current as usize];
        let table = runs();
        for suit in 0..4 {
            let row = hand >> (13 * suit) & ROW;
            if row & row >> 1 & row >> 2 != 0 {
                for &seg in table.of(row) {
                    out.push(action(MELD, u64::from(seg) << (13 * suit), 0));
                }
            }
        }
        let mut triples = triple_ranks(hand);
        while triples != 0 {
            let rank = triples.trailing_zeros();
            triples &= triples - 1;
            for sub in group_subsets(suits_of_rank(hand, rank)) {
                out.push(action(MELD, group_mask(rank, sub), 0));
            }
        }
        for (target, &meld) in self.melds().iter().enumerate() {
            extensions(meld, hand, |ext| {
                out.push(action(LAYOFF, ext, target as u64))
            });
        }
        let mut rest = hand;
        if self.keeps_drawn() {
            out.retain(|&a| !self.strands_drawn(hand, a));
            rest &= !(1 << self.drawn);
        }
        while rest != 0 {
            out.push(action(DISCARD, rest & rest.wrapping_neg(), 0));
            rest &= rest - 1;
        }
    }

    /// Whether the forbid option holds the card drawn from the discard pile this turn.
    fn keeps_drawn(&self) -> bool {
        self.drawn_from_discard && self.drawn >= 0 && self.rules.forbid_discard_of_drawn_discard
    }

    /// Whether the meld or lay-off `a` would leave `hand` holding only the card taken from the
    /// discard pile with no meld to lay it off on.
    fn strands_drawn(&self, hand: u64, a: u64) -> bool {
        let cards = a >> KIND_BITS & FULL;
        let only = 1u64 << self.drawn;
        if hand & !cards != only {
            return false;
        }
        let target = (a >> TARGET_SHIFT) as usize;
        let layoff = a & 7 == LAYOFF;
        let changed = |(i, &m): (usize, &u64)| if layoff && i == target { m | cards } else { m };
        let on_table = self
            .melds()
            .iter()
            .enumerate()
            .map(changed)
            .any(|m| takes(m, only));
        !(on_table || (!layoff && takes(cards, only)))
    }

    // -- applying -----------------------------------------------------------------------------
    /// Plays `a` for the player to move; refused, the state is unchanged.
    pub fn apply(&mut self, a: u64) -> Result<(), Illegal> {
        if self.is_over() {
            return Err(Illegal::Over);
        }
        let p = self.current as usize;
        if self.drawing {
            return self.draw(p, a);
        }
        match a & 7 {
            MELD | LAYOFF => self.put_down(p, a),
            DISCARD if is_move(a) => self.discard(p, (a >> KIND_BITS).trailing_zeros() as u8),
            _ if a == DRAW_STOCK || a == DRAW_DISCARD => Err(Illegal::AlreadyDrawn),
            _ => Err(Illegal::Unmade),
        }
    }

    fn draw(&mut self, p: usize, a: u64) -> Result<(), Illegal> {
        let card = if a == DRAW_STOCK {
            if self.stock_len == 0 {
                return Err(Illegal::StockEmpty);
            }
            self.stock_len -= 1;
            self.drawn_from_discard = false;
            self.stock[usize::from(self.stock_len)]
        } else if a == DRAW_DISCARD {
            if self.pile_len == 0 {
                return Err(Illegal::PileEmpty);
            }
            self.pile_len -= 1;
            let card = self.pile[usize::from(self.pile_len)];
            self.taken[p] |= 1 << card;
            self.drawn_from_discard = true;
            card
        } else if is_move(a) {
            return Err(Illegal::MustDraw);
        } else {
            return Err(Illegal::Unmade);
        };
        self.hands[p] |= 1 << card;
        self.drawn = card as i8;
        self.drawing = false;
        Ok(())
    }

    fn put_down(&mut self, p: usize, a: u64) -> Result<(), Illegal> {
        if !is_move(a) {
            return Err(Illegal::Unmade);
        }
        let cards = a >> KIND_BITS & FULL;
        let missing = cards & !self.hands[p];
        if missing != 0 {
            return Err(Illegal::NotHeld(missing));
        }
        let meld = a & 7 == MELD;
        let target = a >> TARGET_SHIFT;
        if meld {
            if !is_meld(cards) {
                return Err(Illegal::NotMeld(cards));
            }
        } else {
            if target >= u64::from(self.n_melds) {
                return Err(Illegal::NoMeld);
            }
            let old = self.melds[target as usize];
            let new = old | cards;
            if !is_meld(new) || is_group(old) != is_group(new) {
                return Err(Illegal::BadLayoff(new));
            }
        }
        if self.keeps_drawn() && self.strands_drawn(self.hands[p], a) {
            return Err(Illegal::Strands(self.drawn as u8));
        }
        if meld && usize::from(self.n_melds) == MAX_MELDS {
            return Err(Illegal::Unmade); // unreachable with 52 cards
        }
        let hand = self.hands[p] ^ cards;
        self.hands[p] = hand;
        self.taken[p] &= hand;
        self.placed[p] |= cards;
        if self.drawn >= 0 && cards >> self.drawn & 1 != 0 {
            self.drawn = -1;
        }
        if meld {
            self.melds[usize::from(self.n_melds)] = cards;
            self.n_melds += 1;
            if self.rules.score_melds {
                self.scores[p] += mask_value(cards);
            }
        } else {
            self.melds[target as usize] |= cards;
            self.scores[p] += mask_value(cards);
        }
        if hand == 0 {
            self.end(p as i8);
        }
        Ok(())
    }

    fn discard(&mut self, p: usize, card: u8) -> Result<(), Illegal> {
        let bit = 1u64 << card;
        if self.hands[p] & bit == 0 {
            return Err(Illegal::NotHeld(bit));
        }
        if self.keeps_drawn() && card as i8 == self.drawn {
            return Err(Illegal::DiscardTaken(card));
        }
        if usize::from(self.pile_len) == 52 {
            return Err(Illegal::Unmade); // unreachable with 52 cards
        }
        let hand = self.hands[p] ^ bit;
        self.hands[p] = hand;
        self.taken[p] &= hand;
        self.discarded[p] |= bit;
        self.pile[usize::from(self.pile_len)] = card;
        self.pile_len += 1;
        if hand == 0 {
            self.end(p as i8);
            return Ok(());
        }
        self.turn += 1;
        if self.turn >= self.rules.turn_limit {
            self.end(-1);
            return Ok(());
        }
        self.current = ((p + 1) % self.players()) as i8;
        self.drawing = true;
        self.drawn = -1;
        Ok(())
    }

    fn end(&mut self, went_out: i8) {
        self.went_out = went_out;
        self.current = TERMINAL;
        self.drawn = -1;
    }
}

#[cfg(test)]
mod tests {
    //! Properties of random play, and the engine refusing bad input without panicking.

    use proptest::prelude::*;

    use super::*;
    use crate::rummy::melds::FULL;
    use crate::test_support::rummy::rules;

    /// A small deterministic generator (SplitMix64) for decks, rebuilds and choices.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        fn shuffle(&mut self, cards: &mut [u8]) {
            for i in (1..cards.len()).rev() {
                cards.swap(i, self.below(i + 1));
            }
        }
    }

    fn new_deal(rules: Rules, hand_size: usize, rng: &mut Rng) -> State {
        let mut deck: Vec<u8> = (0..52).collect();
        rng.shuffle(&mut deck);
        State::deal(rules, &deck, hand_size).expect("a valid deal")
    }

    /// Rebuild the stock when the engine asks, shuffled by `rng`.
    fn rebuild(state: &mut State, rng: &mut Rng) {
        if state.needs_rebuild() {
            let pile = state.pile();
            let mut order = pile[..pile.len() - 1].to_vec();
            rng.shuffle(&mut order);
            state
                .rebuild(&order)
                .expect("the discards under the top card");
        }
    }

    /// Every card in exactly one place.
    fn check_cards(state: &State) {
        let mut seen = 0u64;
        let mut count = 0u32;
        let cards = state.stock().iter().chain(state.pile()).map(|&c| 1u64 << c);
        for m in state
            .hands()
            .iter()
            .chain(state.melds())
            .copied()
            .chain(cards)
        {
            assert_eq!(seen & m, 0, "a card in two places");
            seen |= m;
            count += m.count_ones();
        }
        assert_eq!((seen, count), (FULL, 52));
        for (seat, &taken) in state.taken().iter().enumerate() {
            assert_eq!(taken & !state.hand(seat), 0, "a taken card not held");
        }
        let table = state.melds().iter().fold(0, |m, &x| m | x);
        assert_eq!(state.placed().iter().fold(0, |m, &x| m | x), table);
    }

    /// No card hidden from a seat shows in what that seat is given.
    fn check_views(state: &State) {
        let public = state.public_view();
        for seat in 0..state.players() {
            let hidden = state.hidden_from(seat);
            let (hand, drawn) = state.seat_view(seat);
            let mut shown = hand;
            shown |= public
                .melds
                .iter()
                .chain(&public.taken)
                .chain(&public.shown)
                .fold(0, |m, &x| m | x);
            shown |= public.pile.iter().fold(0, |m, &c| m | 1 << c);
            if drawn >= 0 {
                shown |= 1 << drawn;
            }
            assert_eq!(shown & hidden, 0, "seat {seat} is shown a hidden card");
            assert_eq!(hand, state.hand(seat));
        }
    }

    fn playout(rules: Rules, hand_size: usize, seed: u64, max_steps: usize) {
        let mut rng = Rng(seed);
        let mut state = new_deal(rules, hand_size, &mut rng);
        let mut legal = Vec::new();
        let mut discarded = vec![0u64; state.players()];
        for _ in 0..max_steps {
            check_cards(&state);
            check_views(&state);
            assert_eq!(
                state.discarded(),
                &discarded[..],
                "each seat's discards, and no others"
            );
            state.legal_actions(&mut legal);
            if state.is_over() {
                assert!(legal.is_empty());
                let returns = state.returns().expect("over");
                assert_eq!(returns.len(), state.players());
                return;
            }
            assert!(!legal.is_empty());
            for &a in &legal {
                let mut copy = state.clone();
                assert_eq!(copy.apply(a), Ok(()), "legal action {a} refused");
            }
            let junk = rng.next();
            let before = state.clone();
            if !legal.contains(&junk) && state.apply(junk).is_err() {
                assert_eq!(state, before, "a refused action changed the state");
            }
            let a = legal[rng.below(legal.len())];
            let seat = state.current_player() as usize;
            state.apply(a).expect("legal");
            if a & 7 == DISCARD {
                discarded[seat] |= a >> KIND_BITS & FULL;
            }
            rebuild(&mut state, &mut rng);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn random_play_keeps_every_card_once(
            seed in any::<u64>(),
            players in 2u8..=4,
            forbid in any::<bool>(),
            score_melds in any::<bool>(),
            turn_limit in 1u64..200,
            small in any::<bool>(),
        ) {
            let hand_size = if small { 3 } else if players == 2 { 10 } else { 7 };
            playout(rules(players, forbid, score_melds, turn_limit), hand_size, seed, 2_000);
        }

        #[test]
        fn any_value_is_applied_or_refused_unchanged(seed in any::<u64>(), values in prop::collection::vec(any::<u64>(), 1..40)) {
            let mut rng = Rng(seed);
            let mut state = new_deal(rules(3, true, true, 50), 7, &mut rng);
            let mut legal = Vec::new();
            for v in values {
                let before = state.clone();
                if state.apply(v).is_err() {
                    prop_assert_eq!(&state, &before);
                } else {
                    rebuild(&mut state, &mut rng);
                }
                state.legal_actions(&mut legal);
                if let Some(&a) = legal.first() {
                    state.apply(a).expect("legal");
                    rebuild(&mut state, &mut rng);
                }
            }
        }

        #[test]
        fn any_parts_are_taken_or_refused(
            players in 0u8..6,
            hands in prop::collection::vec(any::<u64>(), 0..6),
            stock in prop::collection::vec(any::<u8>(), 0..60),
            melds in prop::collection::vec(any::<u64>(), 0..20),
            scores in prop::collection::vec(prop_oneof![
                9 => -SCORE_LIMIT..=SCORE_LIMIT,
                1 => any::<i64>(),
            ], 6),
            current in any::<i8>(),
            drawn in any::<i8>(),
            ended in any::<Option<i8>>(),
        ) {
            let n = hands.len();
            let scores = scores[..n].to_vec();
            let parts = Parts {
                hands,
                stock: stock.clone(),
                pile: stock,
                melds,
                placed: vec![0; n],
                scores,
                taken: vec![0; n],
                current,
                drawing: drawn % 2 == 0,
                drawn,
                drawn_from_discard: true,
                turn: 0,
                ended,
            };
            if let Ok(state) = State::from_parts(rules(players, true, true, 10), &parts) {
                let mut legal = Vec::new();
                state.legal_actions(&mut legal);
                let _ = state.public_view();
                for seat in 0..state.players() {
                    let _ = (state.seat_view(seat), state.hidden_from(seat));
                }
                for a in legal {
                    let _ = state.clone().apply(a);
                }
            }
        }
    }

    #[test]
    fn scores_at_the_limit_play_to_the_end_and_past_it_are_refused() {
        let mut rng = Rng(5);
        let start = new_deal(rules(2, false, true, 400), 10, &mut rng);
        let parts = |scores: Vec<i64>| Parts {
            hands: start.hands().to_vec(),
            stock: start.stock().to_vec(),
            pile: start.pile().to_vec(),
            melds: Vec::new(),
            placed: vec![0; 2],
            scores,
            taken: vec![0; 2],
            current: start.current_player(),
            drawing: true,
            drawn: -1,
            drawn_from_discard: false,
            turn: 0,
            ended: None,
        };
        for scores in [
            vec![i64::MAX, 0],
            vec![0, i64::MIN],
            vec![SCORE_LIMIT + 1, 0],
        ] {
            assert!(State::from_parts(*start.rules(), &parts(scores)).is_err());
        }
        // Melds add to the one, the hands left take from the other: neither wraps (a debug build
        // would panic).
        let mut state = State::from_parts(*start.rules(), &parts(vec![SCORE_LIMIT, -SCORE_LIMIT]))
            .expect("scores at the limit");
        let mut legal = Vec::new();
        while !state.is_over() {
            state.legal_actions(&mut legal);
            state.apply(legal[legal.len() - 1]).expect("legal");
            rebuild(&mut state, &mut rng);
        }
        assert_eq!(state.returns().expect("over").len(), 2);
        let _ = state.public_view();
    }

    #[test]
    fn a_deal_needs_a_whole_deck() {
        let r = rules(2, false, true, 10);
        assert!(State::deal(r, &[0; 52], 10).is_err());
        let deck: Vec<u8> = (0..52).collect();
        assert!(State::deal(r, &deck, 26).is_err());
        // Hand sizes whose product with the players overflows are refused too.
        assert!(State::deal(r, &deck, 1 << (usize::BITS - 1)).is_err());
        assert!(State::deal(rules(3, false, true, 10), &deck, usize::MAX / 3).is_err());
        assert!(State::deal(rules(5, false, true, 10), &deck, 5).is_err());
        let state = State::deal(r, &deck, 10).expect("deal");
        assert_eq!(state.hand(0).count_ones(), 10);
        assert_eq!(
            (state.stock().len(), state.pile(), state.stock()[0]),
            (31, &[20u8][..], 51)
        );
    }
}
