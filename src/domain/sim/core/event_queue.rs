//! The future event list: a min-queue ordered by `(time, seq)`.
//!
//! `seq` is a counter taken at scheduling time, so events at the same instant pop in the order
//! they were scheduled (first in, first out). This makes every run a pure function of its
//! config and seed. Design after nexosim's `util/priority_queue.rs`.
//!
//! Layout, for speed: `(time, seq)` is packed into one `u128` key (time in the high half), kept
//! in its own array next to the events, so ordering compares one integer and moves 16 bytes.
//! A queue of at most `SMALL` events (the usual case: one pending event per worker and per
//! arrival stream) is an unordered array with the index of its minimum cached; a larger one
//! becomes a binary min-heap, and goes back to the array form once it has shrunk to half of
//! that. Keys are unique, so both forms pop the same event: the order never depends on the form.

use crate::domain::sim::core::time::SimTime;

/// Events up to which the queue stays an unordered array.
const SMALL: usize = 16;

/// Events of type `E` waiting for their time.
pub struct EventQueue<E> {
    keys: Vec<u128>,
    events: Vec<E>,
    /// `true`: `keys` is a binary min-heap; `false`: unordered, minimum at `min`.
    heap: bool,
    /// Index of the smallest key in array form (meaningless when empty or in heap form).
    min: usize,
    next_seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            keys: Vec::new(),
            events: Vec::new(),
            heap: false,
            min: 0,
            next_seq: 0,
        }
    }
}

/// The packed `(time, seq)` ordering key.
pub(in crate::domain::sim) fn key(time: SimTime, seq: u64) -> u128 {
    (u128::from(time.0) << 64) | u128::from(seq)
}

impl<E> EventQueue<E> {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// Schedules `event` at `time`. Ties with earlier-scheduled events at the same time pop
    /// after them.
    #[inline(always)]
    pub fn schedule(&mut self, time: SimTime, event: E) {
        let k = key(time, self.next_seq);
        self.next_seq += 1;
        self.keys.push(k);
        self.events.push(event);
        let last = self.keys.len() - 1;
        if self.heap {
            self.sift_up(last);
        } else {
            if last == 0 || k < self.keys[self.min] {
                self.min = last;
            }
            if last >= SMALL {
                self.heap = true;
                for i in (0..self.keys.len() / 2).rev() {
                    self.sift_down(i);
                }
            }
        }
    }

    /// Removes and returns the earliest event.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        if self.keys.is_empty() {
            return None;
        }
        let at = if self.heap { 0 } else { self.min };
        let k = self.keys.swap_remove(at);
        let event = self.events.swap_remove(at);
        let n = self.keys.len();
        if self.heap {
            if n > 0 {
                self.sift_down(0);
            }
            if n <= SMALL / 2 {
                self.heap = false;
                self.find_min();
            }
        } else {
            self.find_min();
        }
        Some((SimTime((k >> 64) as u64), event))
    }

    /// Takes the next sequence number without scheduling anything: for an event the caller
    /// keeps outside the queue (an arrival stream's next arrival) but that must order against
    /// the queued ones exactly as if it had been scheduled now.
    pub fn take_seq(&mut self) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }

    /// The smallest packed key (time in the high 64 bits, sequence number in the low), if any.
    pub fn peek_key(&self) -> Option<u128> {
        let at = if self.heap { 0 } else { self.min };
        self.keys.get(at).copied()
    }

    /// The time of the earliest event.
    pub fn peek_time(&self) -> Option<SimTime> {
        let at = if self.heap { 0 } else { self.min };
        self.keys.get(at).map(|&k| SimTime((k >> 64) as u64))
    }

    /// Number of pending events.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// `true` when no event is pending.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    fn find_min(&mut self) {
        // Branch-free selects: which key is smallest is unpredictable.
        let mut m = 0;
        let mut best = u128::MAX;
        for (i, &k) in self.keys.iter().enumerate() {
            let less = k < best;
            m = if less { i } else { m };
            best = if less { k } else { best };
        }
        self.min = m;
    }

    fn sift_up(&mut self, mut i: usize) {
        while i > 0 {
            let p = (i - 1) / 2;
            if self.keys[p] <= self.keys[i] {
                break;
            }
            self.keys.swap(p, i);
            self.events.swap(p, i);
            i = p;
        }
    }

    fn sift_down(&mut self, mut i: usize) {
        let n = self.keys.len();
        loop {
            let l = 2 * i + 1;
            if l >= n {
                break;
            }
            let r = l + 1;
            let c = if r < n && self.keys[r] < self.keys[l] {
                r
            } else {
                l
            };
            if self.keys[i] <= self.keys[c] {
                break;
            }
            self.keys.swap(i, c);
            self.events.swap(i, c);
            i = c;
        }
    }
}
