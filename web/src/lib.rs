//! The Kafka Sandbox page: a Yew front end over the simulation core.
//!
//! `state` holds the model and the reducer (the only place that changes anything);
//! `panels` are the components, which render snapshots and send actions;
//! `view` computes what panels show from a snapshot (plain data, tested natively);
//! `timeline` follows each group's protocol events in the trace;
//! `draft` is the scenario editor's working copy (plain data, tested natively);
//! `i18n` holds every word in Chinese and English; `glossary` the one word per Kafka
//! concept that the page and the lessons use.

mod app;
mod browser;
pub mod charts;
pub mod compaction;
pub mod draft;
pub mod glossary;
pub mod i18n;
pub mod i18n_compaction;
pub mod i18n_txn;
pub mod messages;
pub mod messages_txn;
pub mod panels;
pub mod sequence;
pub mod share_group_words;
pub mod state;
pub mod timeline;
pub mod view;

pub use app::App;
