//! [`Name`]: a shared, immutable string for what a run copies into many events, messages
//! and map keys — topic, producer, group and client names, and record values.
//!
//! Cloning one bumps a reference count instead of allocating and copying (issue 20: a
//! record's name and value were copied into every event and message that mentioned it).
//! It behaves exactly as the string it holds: it compares, orders and hashes as `str`
//! (the trace digest hashes events through their derived `Hash`, so a `Name` must write
//! exactly what a `String` writes), prints as it, and serialises as a plain JSON string.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Borrow;
use std::cell::RefCell;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

/// The most names [`Name::interned`] keeps per thread.
const INTERNED_MAX: usize = 256;

/// A shared, immutable string: a clone is a reference-count bump. Compares, orders,
/// hashes, prints and serialises exactly as the `str` it holds.
#[derive(Clone, Default)]
pub struct Name(Arc<str>);

impl Name {
    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The copy of this text that earlier calls kept (a small per-thread table), so equal
    /// names made apart share one allocation and compare by pointer. Topic names go
    /// through it (`TopicPartition::new`): partitions are map keys compared on every
    /// lookup. Only which allocation is used changes: equality, order and hash are the
    /// text's. The table keeps at most [`INTERNED_MAX`] names; past that a name stays as is.
    pub(crate) fn interned(self) -> Name {
        thread_local! {
            static TABLE: RefCell<Vec<Name>> = const { RefCell::new(Vec::new()) };
        }
        TABLE.with(|table| {
            let Ok(mut table) = table.try_borrow_mut() else { return self };
            if let Some(kept) = table.iter().find(|kept| kept.same(&self) || *kept.0 == *self.0) {
                return kept.clone();
            }
            if table.len() < INTERNED_MAX {
                table.push(self.clone());
            }
            self
        })
    }

    /// Whether `self` and `other` share one allocation (so they are equal without
    /// comparing their bytes).
    #[inline]
    fn same(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Deref for Name {
    type Target = str;

    #[inline]
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Name {
    #[inline]
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Name {
    #[inline]
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl PartialEq for Name {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.same(other) || *self.0 == *other.0
    }
}

impl Eq for Name {}

impl PartialOrd for Name {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Name {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        if self.same(other) {
            Ordering::Equal
        } else {
            self.0.cmp(&other.0)
        }
    }
}

impl Hash for Name {
    /// Exactly what `str` and `String` write (the trace digest depends on it).
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        str::hash(&self.0, state)
    }
}

macro_rules! eq_with {
    ($($t:ty),*) => {$(
        impl PartialEq<$t> for Name {
            #[inline]
            fn eq(&self, other: &$t) -> bool {
                *self.0 == **other
            }
        }
        impl PartialEq<Name> for $t {
            #[inline]
            fn eq(&self, other: &Name) -> bool {
                **self == *other.0
            }
        }
    )*};
}
eq_with!(&str, String, &String);

impl PartialEq<str> for Name {
    #[inline]
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<Name> for str {
    #[inline]
    fn eq(&self, other: &Name) -> bool {
        *self == *other.0
    }
}

impl From<&str> for Name {
    #[inline]
    fn from(s: &str) -> Self {
        Self(Arc::from(s))
    }
}

impl From<String> for Name {
    #[inline]
    fn from(s: String) -> Self {
        Self(Arc::from(s))
    }
}

impl From<&String> for Name {
    #[inline]
    fn from(s: &String) -> Self {
        Self(Arc::from(s.as_str()))
    }
}

impl From<&Name> for Name {
    #[inline]
    fn from(s: &Name) -> Self {
        s.clone()
    }
}

impl From<Name> for String {
    #[inline]
    fn from(s: Name) -> Self {
        String::from(&*s.0)
    }
}

impl Serialize for Name {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Name::from)
    }
}

#[cfg(test)]
mod tests {
    use super::Name;
    use std::hash::{Hash, Hasher};

    /// Records every call, so two values' hashes can be compared call by call.
    #[derive(Default)]
    struct Calls(Vec<Vec<u8>>);

    impl Hasher for Calls {
        fn finish(&self) -> u64 {
            0
        }
        fn write(&mut self, bytes: &[u8]) {
            self.0.push(bytes.to_vec());
        }
    }

    #[test]
    fn a_name_hashes_compares_and_serialises_exactly_as_its_string() {
        for s in ["", "events", "群组-1", "__consumer_offsets"] {
            let n = Name::from(s);
            let (mut a, mut b) = (Calls::default(), Calls::default());
            n.hash(&mut a);
            s.to_string().hash(&mut b);
            assert_eq!(a.0, b.0, "{s:?}");
            assert_eq!(serde_json::to_string(&n).unwrap(), serde_json::to_string(s).unwrap());
            assert_eq!(serde_json::from_str::<Name>(&serde_json::to_string(s).unwrap()).unwrap(), s);
            assert_eq!(format!("{n} {n:?}"), format!("{s} {s:?}"));
        }
        let mut names: Vec<Name> = ["b", "a", "ab", "", "B"].into_iter().map(Name::from).collect();
        let mut strings: Vec<&str> = vec!["b", "a", "ab", "", "B"];
        names.sort();
        strings.sort();
        assert_eq!(names, strings);
        let (a, b) = (Name::from("topic-a").interned(), Name::from(String::from("topic-a")).interned());
        assert!(a.same(&b), "interned: one allocation");
        let shared = Name::from("t");
        assert_eq!(shared.clone(), shared);
        assert_eq!(Name::from("t"), shared, "equal text, separate allocations");
    }
}
