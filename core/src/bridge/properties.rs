//! A client's `producer.properties` or `consumer.properties`, pasted into a producer or a
//! member: each key under Kafka's own name goes to the sandbox's setting of that name;
//! keys the sandbox does not model, unknown keys and invalid values are reported; nothing
//! else changes.
//!
//! The file is read as `java.util.Properties.load` reads it: `#` and `!` start comments,
//! a key ends at the first unescaped `=`, `:` or whitespace, a line ending in `\` goes
//! on, leading whitespace is dropped. Values are checked as the clients' `ConfigDef`
//! checks them (types, ranges and valid strings), then against the sandbox's bounds
//! (`limits::TABLE`, the same checks a scenario gets).

use crate::config::{Acks, CommitMode, ConsumerConfig, PartitionerKind, ProducerConfig};
use std::fmt;

/// One key the paste could not take, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// A key no Kafka client has (a typo: `lingr.ms`).
    Unknown {
        /// The key as given.
        key: String,
    },
    /// A value Kafka's client refuses (`ConfigException`) or the sandbox's bounds refuse.
    Invalid {
        /// The key.
        key: String,
        /// The value as given.
        value: String,
        /// What the key allows.
        allowed: String,
    },
    /// A key Kafka knows that the sandbox does not model (`bootstrap.servers`,
    /// `key.serializer`, `compression.type`…): left alone.
    NotModelled {
        /// The key.
        key: String,
    },
    /// A key that belongs to the other client (`max.poll.records` in producer.properties).
    OtherClient {
        /// The key.
        key: String,
    },
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::Unknown { key } => write!(f, "{key}: no Kafka client has this setting"),
            Refused::Invalid { key, value, allowed } => write!(f, "{key}={value}: allowed: {allowed}"),
            Refused::NotModelled { key } => write!(f, "{key}: a Kafka setting the sandbox does not model (left alone)"),
            Refused::OtherClient { key } => write!(f, "{key}: a setting of the other client (producer or consumer), left alone"),
        }
    }
}

/// What a paste did: the settings taken (key and value, in the order given) and the
/// keys refused.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pasted {
    /// `(key, value)` of every setting applied.
    pub applied: Vec<(String, String)>,
    /// Every key not applied, with why.
    pub refused: Vec<Refused>,
}

/// The `key=value` pairs of a properties text, as `java.util.Properties.load` reads them.
pub fn parse(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut logical = String::new();
    for raw in text.lines() {
        let line = raw.trim_start_matches([' ', '\t', '\u{c}']);
        if logical.is_empty() && (line.is_empty() || line.starts_with('#') || line.starts_with('!')) {
            continue;
        }
        // A line continues when it ends in an odd number of backslashes.
        let trailing = line.chars().rev().take_while(|c| *c == '\\').count();
        if trailing % 2 == 1 {
            logical.push_str(&line[..line.len() - 1]);
            continue;
        }
        logical.push_str(line);
        let (key, value) = split_pair(&logical);
        out.push((key, value));
        logical.clear();
    }
    if !logical.is_empty() {
        out.push(split_pair(&logical));
    }
    out
}

/// Splits one logical line at the first unescaped `=`, `:` or whitespace (with the
/// separator's surrounding whitespace), unescaping both sides.
fn split_pair(line: &str) -> (String, String) {
    let mut key = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(n) = chars.next() {
                    key.push(unescape(n));
                }
            }
            '=' | ':' => break,
            ' ' | '\t' | '\u{c}' => {
                while chars.peek().is_some_and(|c| matches!(c, ' ' | '\t' | '\u{c}')) {
                    chars.next();
                }
                if chars.peek().is_some_and(|c| matches!(c, '=' | ':')) {
                    chars.next();
                }
                break;
            }
            c => key.push(c),
        }
    }
    while chars.peek().is_some_and(|c| matches!(c, ' ' | '\t' | '\u{c}')) {
        chars.next();
    }
    let mut value = String::new();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                value.push(unescape(n));
            }
        } else {
            value.push(c);
        }
    }
    (key, value)
}

fn unescape(c: char) -> char {
    match c {
        't' => '\t',
        'n' => '\n',
        'r' => '\r',
        'f' => '\u{c}',
        c => c,
    }
}

/// Producer settings Kafka has that the sandbox does not model (a sample of the common
/// ones; any other key of `ProducerConfig` is also one of these, see [`KNOWN_PRODUCER`]).
const KNOWN_PRODUCER: &[&str] = &[
    "bootstrap.servers",
    "client.id",
    "key.serializer",
    "value.serializer",
    "compression.type",
    "compression.gzip.level",
    "compression.lz4.level",
    "compression.zstd.level",
    "send.buffer.bytes",
    "receive.buffer.bytes",
    "max.request.size",
    "reconnect.backoff.ms",
    "reconnect.backoff.max.ms",
    "metadata.max.age.ms",
    "metadata.max.idle.ms",
    "metrics.sample.window.ms",
    "metrics.num.samples",
    "metrics.recording.level",
    "metric.reporters",
    "connections.max.idle.ms",
    "interceptor.classes",
    "security.protocol",
    "transactional.id",
    "transaction.timeout.ms",
    "partitioner.ignore.keys",
    "partitioner.adaptive.partitioning.enable",
    "partitioner.availability.timeout.ms",
    "client.dns.lookup",
    "socket.connection.setup.timeout.ms",
    "socket.connection.setup.timeout.max.ms",
    "enable.metrics.push",
];

/// Consumer settings Kafka has that the sandbox does not model.
const KNOWN_CONSUMER: &[&str] = &[
    "bootstrap.servers",
    "client.id",
    "client.rack",
    "key.deserializer",
    "value.deserializer",
    "fetch.min.bytes",
    "fetch.max.bytes",
    "max.partition.fetch.bytes",
    "send.buffer.bytes",
    "receive.buffer.bytes",
    "request.timeout.ms",
    "default.api.timeout.ms",
    "retry.backoff.ms",
    "retry.backoff.max.ms",
    "reconnect.backoff.ms",
    "reconnect.backoff.max.ms",
    "check.crcs",
    "isolation.level",
    "exclude.internal.topics",
    "allow.auto.create.topics",
    "interceptor.classes",
    "security.protocol",
    "connections.max.idle.ms",
    "metrics.sample.window.ms",
    "metrics.num.samples",
    "metric.reporters",
    "client.dns.lookup",
    "enable.metrics.push",
];

/// Consumer settings the sandbox keeps per group (the group card's controls, or the
/// scenario's `groups[].config`), not per member.
const GROUP_LEVEL: &[&str] = &["group.id", "auto.offset.reset", "partition.assignment.strategy", "group.protocol", "group.remote.assignor"];

const PRODUCER_KEYS: &[&str] = &[
    "acks",
    "linger.ms",
    "batch.size",
    "enable.idempotence",
    "retries",
    "retry.backoff.ms",
    "retry.backoff.max.ms",
    "request.timeout.ms",
    "delivery.timeout.ms",
    "max.in.flight.requests.per.connection",
    "buffer.memory",
    "max.block.ms",
    "partitioner.class",
];

const CONSUMER_KEYS: &[&str] = &[
    "max.poll.records",
    "fetch.max.wait.ms",
    "enable.auto.commit",
    "auto.commit.interval.ms",
    "heartbeat.interval.ms",
    "session.timeout.ms",
    "max.poll.interval.ms",
    "metadata.max.age.ms",
    "group.instance.id",
];

fn number<T: std::str::FromStr>(key: &str, value: &str, allowed: &str) -> Result<T, Refused> {
    value.trim().parse::<T>().map_err(|_| invalid(key, value, allowed))
}

fn invalid(key: &str, value: &str, allowed: &str) -> Refused {
    Refused::Invalid { key: key.into(), value: value.into(), allowed: allowed.into() }
}

fn boolean(key: &str, value: &str) -> Result<bool, Refused> {
    // ConfigDef.Type.BOOLEAN: "true" or "false", any case.
    match value.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(invalid(key, value, "true or false")),
    }
}

/// Within the sandbox's bounds for `path` (a `limits::TABLE` row), else invalid.
fn bounded(key: &str, value: &str, v: u64, path: &str) -> Result<u64, Refused> {
    match crate::limits::TABLE.iter().find(|r| r.path == path) {
        Some(row) if !row.allows(v) => {
            let upto = if row.max == u64::MAX { " or more".to_string() } else { format!(" to {}", row.max) };
            Err(invalid(key, value, &format!("{}{upto}{}", row.min, row.note)))
        }
        _ => Ok(v),
    }
}

/// Applies `producer.properties` to `config`: Kafka's names, Kafka's checks.
pub fn apply_producer(config: &mut ProducerConfig, text: &str) -> Pasted {
    let mut next = config.clone();
    let out = each_property(text, |key, value| {
        let v = value.trim();
        match key.as_str() {
            // ProducerConfig: acks in [all, -1, 0, 1].
            "acks" => {
                next.acks = match v {
                    "all" | "-1" => Acks::All,
                    "1" => Acks::Leader,
                    "0" => Acks::Zero,
                    _ => return Err(invalid(&key, &value, "all, -1, 0 or 1")),
                }
            }
            "linger.ms" => {
                next.linger_ms =
                    bounded(&key, &value, number(&key, &value, "a whole number of ms, 0 or more")?, "producers[].config.linger_ms")?
            }
            "batch.size" => {
                let n: u32 = number(&key, &value, "a whole number of bytes, 0 or more")?;
                next.batch_size = bounded(&key, &value, n.into(), "producers[].config.batch_size")? as u32;
            }
            "enable.idempotence" => next.enable_idempotence = Some(boolean(&key, &value)?),
            "retries" => next.retries = number(&key, &value, "a whole number, 0 or more")?,
            "retry.backoff.ms" => {
                next.retry_backoff_ms =
                    bounded(&key, &value, number(&key, &value, "a whole number of ms")?, "producers[].config.retry_backoff_ms")?
            }
            "retry.backoff.max.ms" => {
                next.retry_backoff_max_ms =
                    bounded(&key, &value, number(&key, &value, "a whole number of ms")?, "producers[].config.retry_backoff_max_ms")?
            }
            "request.timeout.ms" => {
                next.request_timeout_ms =
                    bounded(&key, &value, number(&key, &value, "a whole number of ms")?, "producers[].config.request_timeout_ms")?
            }
            "delivery.timeout.ms" => {
                next.delivery_timeout_ms =
                    bounded(&key, &value, number(&key, &value, "a whole number of ms")?, "producers[].config.delivery_timeout_ms")?
            }
            "max.in.flight.requests.per.connection" => {
                let n: u32 = number(&key, &value, "a whole number, at least 1")?;
                if n == 0 {
                    return Err(invalid(&key, &value, "a whole number, at least 1"));
                }
                next.max_in_flight_requests_per_connection = n;
            }
            "buffer.memory" => {
                next.buffer_memory =
                    bounded(&key, &value, number(&key, &value, "a whole number of bytes")?, "producers[].config.buffer_memory")?
            }
            "max.block.ms" => {
                next.max_block_ms = bounded(&key, &value, number(&key, &value, "a whole number of ms")?, "producers[].config.max_block_ms")?
            }
            "partitioner.class" => {
                next.partitioner = match v {
                    "" => PartitionerKind::BuiltIn,
                    "org.apache.kafka.clients.producer.RoundRobinPartitioner" => PartitionerKind::RoundRobin,
                    _ => {
                        return Err(invalid(
                            &key,
                            &value,
                            "empty (the built-in partitioner) or org.apache.kafka.clients.producer.RoundRobinPartitioner",
                        ))
                    }
                }
            }
            k if KNOWN_PRODUCER.contains(&k) => return Err(Refused::NotModelled { key }),
            k if CONSUMER_KEYS.contains(&k) || KNOWN_CONSUMER.contains(&k) || GROUP_LEVEL.contains(&k) => {
                return Err(Refused::OtherClient { key })
            }
            _ => return Err(Refused::Unknown { key }),
        }
        Ok(())
    });
    *config = next;
    out
}

/// Applies `consumer.properties` to one member's `config` (and `group_instance_id`):
/// Kafka's names, Kafka's checks; group-wide keys are reported, not applied.
pub fn apply_consumer(config: &mut ConsumerConfig, group_instance_id: &mut Option<String>, text: &str) -> Pasted {
    let mut next = config.clone();
    let mut instance = group_instance_id.clone();
    let out = each_property(text, |key, value| {
        let ms = |path: &str| -> Result<u64, Refused> {
            let v: u64 = number(&key, &value, "a whole number of ms")?;
            bounded(&key, &value, v, path)
        };
        match key.as_str() {
            "max.poll.records" => {
                let v: u32 = number(&key, &value, "a whole number, at least 1")?;
                next.max_poll_records = bounded(&key, &value, v.into(), "groups[].members[].config.max_poll_records")? as u32;
            }
            "fetch.max.wait.ms" => next.fetch_max_wait_ms = ms("groups[].members[].config.fetch_max_wait_ms")?,
            "auto.commit.interval.ms" => next.auto_commit_interval_ms = ms("groups[].members[].config.auto_commit_interval_ms")?,
            "heartbeat.interval.ms" => next.heartbeat_interval_ms = ms("groups[].members[].config.heartbeat_interval_ms")?,
            "session.timeout.ms" => next.session_timeout_ms = ms("groups[].members[].config.session_timeout_ms")?,
            "max.poll.interval.ms" => next.max_poll_interval_ms = ms("groups[].members[].config.max_poll_interval_ms")?,
            "metadata.max.age.ms" => next.metadata_max_age_ms = ms("groups[].members[].config.metadata_max_age_ms")?,
            // enable.auto.commit=false: the application commits itself; the sandbox's
            // nearest is a commitSync after processing each poll's records.
            "enable.auto.commit" => {
                next.commit_mode = if boolean(&key, &value)? { CommitMode::Auto } else { CommitMode::SyncAfterProcessing }
            }
            "group.instance.id" => {
                let id = value.trim().to_string();
                crate::command::check_name(crate::command::NameOf::GroupInstanceId, &id)
                    .map_err(|_| invalid(&key, &value, "a non-empty id of at most 64 characters"))?;
                instance = Some(id);
            }
            k if GROUP_LEVEL.contains(&k) => return Err(Refused::NotModelled { key }),
            k if KNOWN_CONSUMER.contains(&k) => return Err(Refused::NotModelled { key }),
            k if PRODUCER_KEYS.contains(&k) || KNOWN_PRODUCER.contains(&k) => return Err(Refused::OtherClient { key }),
            _ => return Err(Refused::Unknown { key }),
        }
        Ok(())
    });
    *config = next;
    *group_instance_id = instance;
    out
}

/// Each `key=value` of `text` through `apply`: applied when it says so, else refused with
/// its reason; the keys keep their order.
fn each_property(text: &str, mut apply: impl FnMut(String, String) -> Result<(), Refused>) -> Pasted {
    let mut out = Pasted::default();
    for (key, value) in parse(text) {
        match apply(key.clone(), value.clone()) {
            Ok(()) => out.applied.push((key, value)),
            Err(r) => out.refused.push(r),
        }
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// `java.util.Properties.load`'s syntax: comments, `=`, `:` and whitespace separators,
    /// continuation lines, escapes.
    #[test]
    fn properties_are_read_as_java_reads_them() {
        let text = "# a comment\n! another\n\nacks=all\nlinger.ms : 20\nbatch.size 32768\n  retries=\\\n   3\nkey\\=with\\ equals=v\\tt\n";
        assert_eq!(
            parse(text),
            vec![
                ("acks".into(), "all".into()),
                ("linger.ms".into(), "20".into()),
                ("batch.size".into(), "32768".into()),
                ("retries".into(), "3".into()),
                ("key=with equals".into(), "v\tt".into()),
            ]
        );
    }

    /// A producer takes Kafka's names; a typo, a value Kafka refuses, a key the sandbox
    /// does not model and a consumer key are reported; nothing else changes.
    #[test]
    fn a_pasted_producer_properties_takes_kafkas_names_and_reports_the_rest() {
        let mut c = ProducerConfig::default();
        let before = c.clone();
        let p = apply_producer(
            &mut c,
            "bootstrap.servers=localhost:9092\nacks=1\nlinger.ms=20\nlingr.ms=5\nbatch.size=lots\nmax.poll.records=10\n\
             partitioner.class=org.apache.kafka.clients.producer.RoundRobinPartitioner\n",
        );
        assert_eq!(
            p.applied,
            vec![
                ("acks".into(), "1".into()),
                ("linger.ms".into(), "20".into()),
                ("partitioner.class".into(), "org.apache.kafka.clients.producer.RoundRobinPartitioner".into())
            ]
        );
        assert_eq!(
            p.refused,
            vec![
                Refused::NotModelled { key: "bootstrap.servers".into() },
                Refused::Unknown { key: "lingr.ms".into() },
                Refused::Invalid { key: "batch.size".into(), value: "lots".into(), allowed: "a whole number of bytes, 0 or more".into() },
                Refused::OtherClient { key: "max.poll.records".into() },
            ]
        );
        assert_eq!(c, ProducerConfig { acks: Acks::Leader, linger_ms: 20, partitioner: PartitionerKind::RoundRobin, ..before });
        assert_eq!(p.refused[1].to_string(), "lingr.ms: no Kafka client has this setting");
    }

    #[test]
    fn a_pasted_consumer_properties_sets_one_member_and_leaves_the_group_alone() {
        let mut c = ConsumerConfig::default();
        let mut instance = None;
        let before = c.clone();
        let p = apply_consumer(
            &mut c,
            &mut instance,
            "group.id=billing\nmax.poll.records=50\nsession.timeout.ms=10000\nenable.auto.commit=false\ngroup.instance.id=c-1\nsession.timeout.ms=-1\nacks=all\n",
        );
        assert_eq!(p.applied.len(), 4);
        assert_eq!(
            c,
            ConsumerConfig { max_poll_records: 50, session_timeout_ms: 10_000, commit_mode: CommitMode::SyncAfterProcessing, ..before }
        );
        assert_eq!(instance.as_deref(), Some("c-1"));
        assert!(
            matches!(&p.refused[..], [Refused::NotModelled { key }, Refused::Invalid { .. }, Refused::OtherClient { .. }] if key == "group.id"),
            "{:?}",
            p.refused
        );
    }
}
