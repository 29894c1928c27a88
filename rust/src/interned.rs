//! Shared objects by packed value, for the bindings that hand Python every move as the one
//! object made for its value (the climbing plays, the rummy moves): a list of legal actions
//! then costs a lookup per move and makes no action object.
//!
//! [`Interned`] is an open-addressing table: a multiplicative hash of the packed value picks the
//! home slot, a collision takes the next free slot, and the table doubles before it is half
//! full. It holds any object type (the bindings' `Py<PyAny>`), so it is tested without Python;
//! with `()` objects it numbers values instead (the climbing action index).

/// Objects by packed `u64` value.
#[derive(Clone, Debug)]
pub(crate) struct Interned<T> {
    /// `(value, index in objects + 1)`; an index of 0 marks an empty slot.
    slots: Vec<(u64, u32)>,
    /// 64 less the slot count's bits: a hash's top bits pick the home slot.
    shift: u32,
    objects: Vec<T>,
}

/// The fewest slots a table has (2^4).
const MIN_BITS: u32 = 4;

impl<T> Interned<T> {
    /// An empty table with room for `capacity` objects before it grows.
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        let bits = (2 * capacity.max(1))
            .next_power_of_two()
            .trailing_zeros()
            .max(MIN_BITS);
        Interned {
            slots: vec![(0, 0); 1 << bits],
            shift: 64 - bits,
            objects: Vec::with_capacity(capacity),
        }
    }

    /// The table of `objects[i]` for `values[i]`; a value given twice keeps its first object.
    pub(crate) fn from_pairs(values: &[u64], objects: impl IntoIterator<Item = T>) -> Self {
        let mut table = Interned::with_capacity(values.len());
        for (&value, object) in values.iter().zip(objects) {
            if table.get(value).is_none() {
                table.insert(value, object);
            }
        }
        table
    }

    fn home(&self, value: u64) -> usize {
        (value.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// The slot holding `value`, or the empty slot where it would go (there is always one).
    fn find(&self, value: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut slot = self.home(value);
        loop {
            let (key, index) = self.slots[slot];
            if index == 0 || key == value {
                return slot;
            }
            slot = (slot + 1) & mask;
        }
    }

    /// The object of `value`, if it has one.
    pub(crate) fn get(&self, value: u64) -> Option<&T> {
        self.position(value).and_then(|i| self.objects.get(i))
    }

    /// The place of `value`'s object in the order the values were first given, if it has one.
    pub(crate) fn position(&self, value: u64) -> Option<usize> {
        match self.slots[self.find(value)] {
            (_, 0) => None,
            (_, index) => Some(index as usize - 1),
        }
    }

    /// Give `value` its object, or a new one in place of the old.
    pub(crate) fn insert(&mut self, value: u64, object: T) {
        let slot = self.find(value);
        if let Some(i) = usize::try_from(self.slots[slot].1)
            .ok()
            .and_then(|i| i.checked_sub(1))
        {
            self.objects[i] = object;
            return;
        }
        if 2 * (self.objects.len() + 1) > self.slots.len() {
            self.grow();
        }
        self.objects.push(object);
        let slot = self.find(value);
        self.slots[slot] = (value, self.objects.len() as u32);
    }

    /// Twice the slots, every value placed again.
    fn grow(&mut self) {
        let bits = 64 - self.shift + 1;
        let old = std::mem::replace(&mut self.slots, vec![(0, 0); 1 << bits]);
        self.shift = 64 - bits;
        for (value, index) in old {
            if index != 0 {
                let slot = self.find(value);
                self.slots[slot] = (value, index);
            }
        }
    }

    /// How many values have an object.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.objects.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_finds_its_object_as_the_table_grows() {
        let mut table = Interned::with_capacity(1);
        // Values alike in their high bits (the hash's), and 0, which marks nothing special.
        let values: Vec<u64> = (0..1000u64).map(|i| (i % 3) << 60 | i).collect();
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(table.get(v), None);
            table.insert(v, i);
            assert_eq!(table.len(), i + 1);
            assert!(2 * table.len() <= table.slots.len());
        }
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(table.get(v), Some(&i));
        }
        assert_eq!(table.get(1 << 59), None);
        table.insert(values[5], 99);
        assert_eq!((table.get(values[5]), table.len()), (Some(&99), 1000));
    }

    #[test]
    fn pairs_keep_the_first_object_of_a_value() {
        let table = Interned::from_pairs(&[0, 7, 0, u64::MAX], ["pass", "seven", "again", "max"]);
        assert_eq!(table.get(0), Some(&"pass"));
        assert_eq!(table.get(7), Some(&"seven"));
        assert_eq!(table.get(u64::MAX), Some(&"max"));
        assert_eq!(table.get(1), None);
        assert_eq!(table.len(), 3);
    }
}
