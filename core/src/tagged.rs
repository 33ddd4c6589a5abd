//! The reader of the formats' internally tagged enums (`#[serde(tag = "...")]`):
//! [`Command`](crate::command::Command) (`"type"`, one row per feature command), [`SeekTo`](crate::command::SeekTo)
//! (`"kind"`) and the lessons' [`Query`](crate::lesson::Query) (`"ask"`).
//!
//! Why not serde's derive: a derived internally tagged `Deserialize` buffers the object into
//! serde's `Content`, then instantiates a map visitor and a sequence visitor per struct
//! variant over `ContentDeserializer`. `Query`'s was the largest function of the page's wasm
//! (110 KB before wasm-opt), `Command`'s the second (59 KB): BENCHMARKS.md, "Bundle". This
//! reader goes through the object once, key by key, with one table per enum ([`Table`]):
//! the tag, then each field into its slot (one per field name, [`Tagged::Slots`]), checked
//! against the fields of the variant; then [`Tagged::build`] makes the variant. Each value is
//! read by its own type's `Deserialize`, which the page has anyway. Keys that come before the
//! tag are kept as `serde_json::Value` (also in the page already) until the tag says what
//! they are, then read as if they came after it (see `reread`): no deserializer type is
//! added, so no derived impl is instantiated twice.
//!
//! The format is serde's, with its messages (`unknown variant`, `unknown field ... expected
//! one of`, `missing field`, `duplicate field`, `invalid type`, written by serde's own error
//! constructors): the tag may come anywhere; a key the variant does not take is refused
//! (`deny_unknown_fields`) or ignored (without it, and always for a unit variant, as serde
//! did); `#[serde(default)]` fields may be left out; the sequence form serde also accepted
//! (`["crash_broker", 0]`: the tag, then the fields in order) still reads.
//!
//! An enum gets its reader from [`tagged_reader!`]: its slots (every field name any variant
//! takes, with the type it is read as) and one row per variant (its tag and its fields in
//! declaration order, `name: default` for a `#[serde(default)]` one). The macro also checks
//! at compile time that every variant has a row and every row names all of its variant's
//! fields; the tag text is checked by the round-trip tests.

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Unexpected, Visitor};
use serde_json::Value;
use std::fmt;
use std::marker::PhantomData;

/// What the reader knows of one enum's format. Written by [`tagged_reader!`].
pub(crate) struct Table {
    /// The enum's name in messages (`"Command"`).
    pub name: &'static str,
    /// The tag's key (`"type"`).
    pub tag: &'static str,
    /// Each variant's tag, in declaration order: what an unknown tag is told.
    pub tags: &'static [&'static str],
    /// Each variant's fields, in declaration order: what a key the variant does not take
    /// is told.
    pub fields: &'static [&'static [&'static str]],
    /// The same fields as indices into `slots`.
    pub field_slots: &'static [&'static [u8]],
    /// Every field name any variant takes (at most 64).
    pub slots: &'static [&'static str],
    /// `deny_unknown_fields`: a key the variant does not take is refused (except by a unit
    /// variant, which serde let take anything) rather than ignored.
    pub deny_unknown_fields: bool,
}

/// An enum read with this module's reader. Implemented by [`tagged_reader!`].
pub(crate) trait Tagged: Sized {
    const TABLE: &'static Table;
    /// One `Option` per field name: what has been read so far.
    type Slots: Default;
    /// Reads the value of field name `slot` into its slot, for the variant tagged `tag` (a
    /// field whose type depends on the variant reads by it).
    fn read<'de, D: Deserializer<'de>>(slots: &mut Self::Slots, slot: usize, tag: &'static str, d: D) -> Result<(), D::Error>;
    /// Makes variant `variant` from the slots: a missing field is refused here.
    fn build<E: de::Error>(variant: usize, slots: Self::Slots) -> Result<Self, E>;
}

/// How a slot is read. Every `Deserialize` type reads as itself; a slot whose type depends on
/// the variant (`Command`'s `group`) implements it by hand.
pub(crate) trait SlotRead<'de>: Sized {
    fn read<D: Deserializer<'de>>(d: D, tag: &'static str) -> Result<Self, D::Error>;
}

impl<'de, T: de::Deserialize<'de>> SlotRead<'de> for T {
    fn read<D: Deserializer<'de>>(d: D, _tag: &'static str) -> Result<Self, D::Error> {
        T::deserialize(d)
    }
}

/// A slot's value as a required field of the variant: refused with `missing field` when the
/// key was absent.
pub(crate) trait Take<T> {
    fn required<E: de::Error>(self, name: &'static str) -> Result<T, E>;
}

impl<T> Take<T> for Option<T> {
    fn required<E: de::Error>(self, name: &'static str) -> Result<T, E> {
        self.ok_or_else(|| E::missing_field(name))
    }
}

/// A slot read as `Option<T>` (`null` allowed, since some variant's field is an `Option`)
/// for a variant whose field is a plain `T`: `null` is refused as serde refused it.
impl<T: Expecting> Take<T> for Option<Option<T>> {
    fn required<E: de::Error>(self, name: &'static str) -> Result<T, E> {
        match self {
            None => Err(E::missing_field(name)),
            Some(None) => Err(E::invalid_type(Unexpected::Unit, &T::EXPECTING)),
            Some(Some(v)) => Ok(v),
        }
    }
}

/// What serde's own visitor of a type says it expected.
pub(crate) trait Expecting {
    const EXPECTING: &'static str;
}

impl Expecting for String {
    const EXPECTING: &'static str = "a string";
}

impl Expecting for u32 {
    const EXPECTING: &'static str = "u32";
}

/// `Deserialize::deserialize` of a [`Tagged`] enum.
pub(crate) fn deserialize<'de, T: Tagged, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    d.deserialize_any(Reader::<T>(PhantomData))
}

struct Reader<T>(PhantomData<T>);

impl<'de, T: Tagged> Visitor<'de> for Reader<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "internally tagged enum {}", T::TABLE.name)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let table = T::TABLE;
        let mut variant: Option<usize> = None;
        let mut slots = T::Slots::default();
        // The field names read so far, a bit per slot: a second one is refused.
        let mut seen = 0u64;
        // The keys before the tag, with their values as JSON, until the tag says which
        // variant takes them (serde's derive kept the whole object as its `Content`).
        let mut before: Vec<(String, Value)> = Vec::new();
        while let Some(key) = map.next_key_seed(KeySeed { table, variant })? {
            match key {
                Key::Tag if variant.is_some() => return Err(de::Error::duplicate_field(table.tag)),
                Key::Tag => variant = Some(map.next_value_seed(TagSeed(table))?),
                Key::Slot(i) => {
                    take(&mut seen, table, i)?;
                    // (A key is a slot only once the tag is known.)
                    let tag = variant.map_or("", |v| table.tags[v]);
                    map.next_value_seed(SlotSeed::<T> { slots: &mut slots, slot: i, tag })?;
                }
                Key::Skip => {
                    map.next_value::<IgnoredAny>()?;
                }
                Key::Before(name) => before.push((name, map.next_value::<Value>()?)),
            }
        }
        let Some(v) = variant else {
            return Err(de::Error::missing_field(table.tag));
        };
        // The keys before the tag are read at the end of the object, so that a refusal is
        // placed at its `}` (and named by the object's JSON path, as serde's derive did),
        // not at the tag's value, which is not what is wrong.
        for (name, value) in before {
            if let Key::Slot(i) = classify(table, v, &name)? {
                take(&mut seen, table, i)?;
                reread::<T, A::Error>(&mut slots, i, table.tags[v], &value)?;
            }
        }
        T::build(v, slots)
    }

    /// `["tag", field, field, ...]`: the fields in declaration order; trailing
    /// `#[serde(default)]` ones may be left out.
    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<T, S::Error> {
        let table = T::TABLE;
        let Some(v) = seq.next_element_seed(TagSeed(table))? else {
            return Err(de::Error::missing_field(table.tag));
        };
        let mut slots = T::Slots::default();
        let mut count = 0;
        for &i in table.field_slots[v] {
            let seed = SlotSeed::<T> { slots: &mut slots, slot: usize::from(i), tag: table.tags[v] };
            if seq.next_element_seed(seed)?.is_none() {
                break;
            }
            count += 1;
        }
        let mut extra = 0;
        while seq.next_element::<IgnoredAny>()?.is_some() {
            extra += 1;
        }
        if extra > 0 {
            let expected = if count == 1 { "1 element in sequence".to_string() } else { format!("{count} elements in sequence") };
            return Err(de::Error::invalid_length(count + extra, &expected.as_str()));
        }
        T::build(v, slots)
    }
}

/// Marks slot `i` as read; refused if it already was.
fn take<E: de::Error>(seen: &mut u64, table: &Table, i: usize) -> Result<(), E> {
    let bit = 1u64 << i;
    if *seen & bit != 0 {
        return Err(E::duplicate_field(table.slots[i]));
    }
    *seen |= bit;
    Ok(())
}

/// A value that came before the tag, read into its slot now: its compact JSON text through
/// the same deserializer type as [`crate::json::read_json`] (serde_json's str reader), so
/// nothing is instantiated again. A refusal is the object's, as it was with serde's derive
/// (the message without this text's line and column: serde_json then places it at the
/// object's `}`).
fn reread<T: Tagged, E: de::Error>(slots: &mut T::Slots, slot: usize, tag: &'static str, value: &Value) -> Result<(), E> {
    let text = crate::json::write_json(value, false);
    let mut de = serde_json::Deserializer::from_str(&text);
    T::read(slots, slot, tag, &mut de).map_err(|e| {
        let message = e.to_string();
        let place = format!(" at line {} column {}", e.line(), e.column());
        E::custom(message.strip_suffix(&place).unwrap_or(&message))
    })
}

enum Key {
    Tag,
    Slot(usize),
    /// A key the variant ignores.
    Skip,
    /// A key before the tag.
    Before(String),
}

/// What key `key` is to variant `v`: refused when the variant does not take it (with
/// `deny_unknown_fields`, except a unit variant, which serde let take anything).
fn classify<E: de::Error>(table: &Table, v: usize, key: &str) -> Result<Key, E> {
    match table.slots.iter().position(|n| *n == key) {
        Some(i) if table.field_slots[v].contains(&(i as u8)) => Ok(Key::Slot(i)),
        _ if table.fields[v].is_empty() || !table.deny_unknown_fields => Ok(Key::Skip),
        _ => Err(E::unknown_field(key, table.fields[v])),
    }
}

/// A key: refused at once (where it stands) when the variant is known and does not take it.
struct KeySeed {
    table: &'static Table,
    variant: Option<usize>,
}

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("field identifier")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
        if key == self.table.tag {
            return Ok(Key::Tag);
        }
        match self.variant {
            Some(v) => classify(self.table, v, key),
            None => Ok(Key::Before(key.to_string())),
        }
    }
}

/// The tag's value: a variant's index.
struct TagSeed(&'static Table);

impl<'de> DeserializeSeed<'de> for TagSeed {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for TagSeed {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("variant identifier")
    }

    fn visit_str<E: de::Error>(self, tag: &str) -> Result<usize, E> {
        self.0.tags.iter().position(|t| *t == tag).ok_or_else(|| E::unknown_variant(tag, self.0.tags))
    }
}

struct SlotSeed<'a, T: Tagged> {
    slots: &'a mut T::Slots,
    slot: usize,
    tag: &'static str,
}

impl<'de, T: Tagged> DeserializeSeed<'de> for SlotSeed<'_, T> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        T::read(self.slots, self.slot, self.tag, d)
    }
}

/// Writes an enum's [`Tagged`] reader and its `Deserialize`:
///
/// ```text
/// tagged_reader! {
///     /// doc of the impl
///     Enum (tag "type", deny_unknown_fields: true) {
///         slots { name: Type, ... }         // every field name, as the type it is read as
///         variants {
///             Variant "variant" { field, other: default, ... },   // fields in order
///             Unit "unit" {},
///         }
///     }
/// }
/// ```
///
/// A slot whose field is an `Option` in one variant and a plain `T` in another is read as the
/// `Option` (`Take` refuses a `null` for the plain one). `: default` marks a
/// `#[serde(default)]` field (absent: `Default::default()`).
macro_rules! tagged_reader {
    // A flat enum: one row per variant.
    (
        $(#[$doc:meta])*
        $ty:ident (tag $tag:literal, deny_unknown_fields: $deny:literal) {
            slots { $($slot:ident: $slot_ty:ty),* $(,)? }
            variants { $($variant:ident $vtag:literal { $($field:ident $(: $default:ident)?),* $(,)? }),* $(,)? }
        }
    ) => {
        $crate::tagged::tagged_reader!(@common [$(#[$doc])*] $ty, $tag, $deny,
            slots [$($slot: $slot_ty),*],
            variants [$($variant $vtag [$($field)*]),*],
            build |s| [$(Kind::$variant => $ty::$variant {
                $($field: $crate::tagged::take_field!($($default)? s.$field, $field),)*
            },)*],
            // Every variant has a row, and every row names all of its variant's fields.
            check |value| [$($ty::$variant { $($field: _),* } => {})*]
        );
    };
    // An enum of feature enums (`Command`): one row per inner variant,
    // `Outer(Inner::Variant) "tag" { fields }`, read and written as the inner variant.
    (
        $(#[$doc:meta])*
        $ty:ident (tag $tag:literal, deny_unknown_fields: $deny:literal) {
            slots { $($slot:ident: $slot_ty:ty),* $(,)? }
            variants { $($outer:ident($inner:ident :: $variant:ident) $vtag:literal { $($field:ident $(: $default:ident)?),* $(,)? }),* $(,)? }
        }
    ) => {
        $crate::tagged::tagged_reader!(@common [$(#[$doc])*] $ty, $tag, $deny,
            slots [$($slot: $slot_ty),*],
            variants [$($variant $vtag [$($field)*]),*],
            build |s| [$(Kind::$variant => $ty::$outer($inner::$variant {
                $($field: $crate::tagged::take_field!($($default)? s.$field, $field),)*
            }),)*],
            // Every inner variant has a row, and every row names all of its fields.
            check |value| [$($ty::$outer($inner::$variant { $($field: _),* }) => {})*]
        );
    };
    (@common [$(#[$doc:meta])*] $ty:ident, $tag:literal, $deny:literal,
        slots [$($slot:ident: $slot_ty:ty),*],
        variants [$($variant:ident $vtag:literal [$($field:ident)*]),*],
        build |$s:ident| [$($build:tt)*],
        check |$value:ident| [$($check:tt)*]
    ) => {
        const _: () = {
            use serde::de::{Deserialize, Deserializer, Error};
            use $crate::tagged::{SlotRead, Table, Tagged};

            #[allow(non_camel_case_types)]
            #[derive(Clone, Copy)]
            enum Slot { $($slot),* }

            #[derive(Default)]
            pub struct Slots { $($slot: Option<$slot_ty>),* }

            #[allow(clippy::enum_variant_names)]
            #[derive(Clone, Copy)]
            enum Kind { $($variant),* }

            impl Tagged for $ty {
                const TABLE: &'static Table = &Table {
                    name: stringify!($ty),
                    tag: $tag,
                    tags: &[$($vtag),*],
                    fields: &[$(&[$(stringify!($field)),*]),*],
                    field_slots: &[$(&[$(Slot::$field as u8),*]),*],
                    slots: &[$(stringify!($slot)),*],
                    deny_unknown_fields: $deny,
                };
                type Slots = Slots;

                fn read<'de, D: Deserializer<'de>>(slots: &mut Slots, slot: usize, tag: &'static str, d: D) -> Result<(), D::Error> {
                    const SLOTS: &[Slot] = &[$(Slot::$slot),*];
                    match SLOTS[slot] {
                        $(Slot::$slot => slots.$slot = Some(SlotRead::read(d, tag)?),)*
                    }
                    Ok(())
                }

                fn build<E: Error>(variant: usize, $s: Slots) -> Result<Self, E> {
                    const KINDS: &[Kind] = &[$(Kind::$variant),*];
                    Ok(match KINDS[variant] { $($build)* })
                }
            }

            $(#[$doc])*
            impl<'de> Deserialize<'de> for $ty {
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    $crate::tagged::deserialize(d)
                }
            }

            // A bit per slot in the reader's `u64`s.
            const _: () = assert!(<$ty as Tagged>::TABLE.slots.len() <= 64);

            const _: fn(&$ty) = |$value| match $value { $($check)* };
        };
    };
}

macro_rules! take_field {
    (default $slot:expr, $name:ident) => {
        $slot.unwrap_or_default()
    };
    ($slot:expr, $name:ident) => {
        $crate::tagged::Take::required($slot, stringify!($name))?
    };
}

pub(crate) use {tagged_reader, take_field};

#[cfg(test)]
#[allow(clippy::unwrap_used)]
pub(crate) mod tests {
    //! Helpers for the readers' tests (in `command` and `lesson`), and for the tests that the
    //! docs list every tag (`documented`, also for the events' `type`).
    use super::Tagged;
    use crate::json::write_json;
    use serde::Serialize;

    /// The written object with its tag (the writer's first key) moved to the end.
    pub(crate) fn tag_last(text: &str) -> String {
        let end = text.find(',').unwrap_or(text.len() - 1);
        let (tag, rest) = (&text[1..end], &text[end..text.len() - 1]);
        match rest.strip_prefix(',') {
            Some(fields) => format!("{{{fields},{tag}}}"),
            None => format!("{{{tag}}}"),
        }
    }

    /// The names a doc (`docs/NAME`) lists in the first column of its tables headed `header`
    /// (`` | `type` | Fields | ``): every name in backquotes in that column (a row may give
    /// several, `` `broker_crashed` / `broker_restarted` ``).
    pub(crate) fn documented(doc: &str, header: &str) -> std::collections::BTreeSet<String> {
        let path = format!("{}/../docs/{doc}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut out = std::collections::BTreeSet::new();
        let mut in_table = false;
        for line in text.lines() {
            if line.starts_with(header) {
                in_table = true;
            } else if !line.starts_with('|') {
                in_table = false;
            } else if in_table {
                let first = line.split('|').nth(1).unwrap_or_default();
                out.extend(first.split('`').skip(1).step_by(2).filter(|n| !n.is_empty()).map(str::to_string));
            }
        }
        out
    }

    /// `docs/doc` lists exactly `names` in its tables headed `header`: else the names it
    /// lacks and the names it has that the code does not.
    pub(crate) fn check_documented<'a>(doc: &str, header: &str, names: impl IntoIterator<Item = &'a str>) {
        let code: std::collections::BTreeSet<String> = names.into_iter().map(str::to_string).collect();
        let listed = documented(doc, header);
        let missing: Vec<&String> = code.difference(&listed).collect();
        let extra: Vec<&String> = listed.difference(&code).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "docs/{doc}, tables headed {header:?}: missing {missing:?}; listed but not in the code {extra:?}"
        );
    }

    /// The tags the writer wrote for `values`, checked against the reader's table: every
    /// tag in it has a sample, and every sample's tag is in it.
    pub(crate) fn check_tags<T: Serialize + Tagged>(values: &[T]) {
        let written: Vec<String> = values
            .iter()
            .map(|v| {
                let text = write_json(v, false);
                let prefix = format!("{{\"{}\":\"", T::TABLE.tag);
                let tag = text.strip_prefix(&prefix).unwrap();
                tag[..tag.find('"').unwrap()].to_string()
            })
            .collect();
        for tag in T::TABLE.tags {
            assert!(written.iter().any(|w| w == tag), "no sample of `{tag}`");
        }
        for tag in &written {
            assert!(T::TABLE.tags.contains(&tag.as_str()), "`{tag}` is not in the reader's table");
        }
    }
}
