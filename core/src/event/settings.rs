//! The run's own events: a setting changed at run time, a command that could not be carried out.

use super::{Category, Jump, Subject};
use serde::{Deserialize, Serialize};

/// Settings: what happened, with what it touched (one kind of [`super::EventKind`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
// Explicit discriminants: the place each kind had in the one flat `EventKind`, so the
// trace digest (derived `Hash`, which hashes the discriminant) is unchanged.
#[repr(isize)]
pub enum SettingsEvent {
    /// A setting changed at run time.
    ConfigChanged {
        /// What the setting belongs to: a producer's name (for `acks`) or a topic's.
        entity: String,
        /// The setting's Kafka name: `acks`, `min.insync.replicas` or
        /// `unclean.leader.election.enable`.
        setting: String,
        /// Its new value, as Kafka writes it (`all`, `2`, `true`).
        value: String,
    } = 22,
    /// A timeline command or a send that could not be carried out, and why.
    CommandRejected {
        /// Why, in English (the command's refusal).
        reason: String,
    } = 44,
}

impl SettingsEvent {
    /// This feature's part of [`EventKind::name`](super::EventKind::name).
    pub fn name(&self) -> &'static str {
        use SettingsEvent as E;
        match self {
            E::ConfigChanged { .. } => "ConfigChanged",
            E::CommandRejected { .. } => "CommandRejected",
        }
    }

    /// This feature's part of [`EventKind::subjects`](super::EventKind::subjects).
    pub fn subjects(&self) -> Vec<Subject<'_>> {
        use SettingsEvent as E;
        use Subject as S;
        match self {
            // Run-time settings: `acks` is a producer's, the others a topic's.
            E::ConfigChanged { entity, setting, .. } => {
                vec![if setting == "acks" { S::Producer(entity) } else { S::Topic(entity) }]
            }
            E::CommandRejected { .. } => Vec::new(),
        }
    }

    /// This feature's part of [`EventKind::category`](super::EventKind::category).
    pub fn category(&self) -> Category {
        use SettingsEvent as E;
        match self {
            E::ConfigChanged { .. } | E::CommandRejected { .. } => Category::Settings,
        }
    }

    /// This feature's part of [`EventKind::jump`](super::EventKind::jump).
    pub fn jump(&self) -> Option<Jump> {
        use SettingsEvent as E;
        match self {
            E::ConfigChanged { .. } | E::CommandRejected { .. } => None,
        }
    }

    /// This feature's part of [`EventKind::details`](super::EventKind::details).
    pub fn details(&self) -> Vec<&str> {
        use SettingsEvent as E;
        match self {
            E::ConfigChanged { setting, value, .. } => vec![setting, value],
            // A refusal's sentence is the page's words, not a detail to match.
            E::CommandRejected { .. } => Vec::new(),
        }
    }
}
