//! `kafka-sandbox assign`: runs a consumer group assignor over a group described in JSON on stdin.
//!
//! All four of Kafka's client-side assignors are available. `sticky` and
//! `cooperative-sticky` read each member's `owned` partitions and `generation`, and take the
//! members in the order given (the JoinGroup response order, which breaks ties inside a
//! Java HashMap bucket). `cooperative-sticky` prints the first-round assignment: every
//! partition that changes owner is withheld, to be handed out by the next rebalance.
//!
//! With `"protocol": "consumer"` it runs the KIP-848 broker-side assignors (`uniform`,
//! `range`) instead, as the group coordinator does: `owned` is each member's stored
//! target assignment, in the record's order, and topics have ids (`topic_ids`, or derived
//! from `seed` and the name as a scenario derives them).

use std::collections::BTreeMap;
use std::fmt;
use std::io::{Read, Write};

use kafka_sandbox_core::assign::server::{assign_server, ServerAssignor, TopicMeta, Uuid};
use kafka_sandbox_core::assign::{assign, check_leader_input, Strategy, Subscription, MAX_ASSIGNED_PARTITIONS};
use kafka_sandbox_core::scenario::parse_json;
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

/// The most bytes read from stdin: a bound on memory for a hand-written group.
const MAX_INPUT_BYTES: u64 = 16 * 1024 * 1024;

const USAGE: &str = "usage: kafka-sandbox assign < group.json   (see kafka-sandbox --help)";

/// The JSON document on stdin.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GroupInput {
    /// `classic` (the default: the client-side assignors) or `consumer` (KIP-848: the
    /// broker-side `uniform` and `range`).
    #[serde(default)]
    protocol: Option<String>,
    /// A Kafka assignor name; parsed with `Strategy::from_str` for a clear message.
    strategy: String,
    /// Consumer protocol only: topic -> topic id (22 characters, as Kafka prints it).
    #[serde(default)]
    topic_ids: Option<BTreeMap<String, String>>,
    /// Consumer protocol only: the seed topic ids without `topic_ids` are derived from
    /// (0 by default), as a scenario with that seed derives them.
    #[serde(default)]
    seed: Option<u64>,
    /// Topic -> partition count (the cluster metadata).
    #[serde(deserialize_with = "unique_keys")]
    topics: BTreeMap<String, u32>,
    members: Vec<MemberInput>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MemberInput {
    member_id: String,
    #[serde(default)]
    group_instance_id: Option<String>,
    subscription: Vec<String>,
    #[serde(default)]
    owned: Vec<(String, u32)>,
    #[serde(default)]
    generation: Option<i32>,
}

/// A JSON object into a map, rejecting a key that appears twice (serde_json would keep
/// the last one silently).
fn unique_keys<'de, D: Deserializer<'de>>(deserializer: D) -> Result<BTreeMap<String, u32>, D::Error> {
    struct UniqueKeys;
    impl<'de> Visitor<'de> for UniqueKeys {
        type Value = BTreeMap<String, u32>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object of topic name -> partition count")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some((topic, count)) = map.next_entry::<String, u32>()? {
                if out.contains_key(&topic) {
                    return Err(serde::de::Error::custom(format!("topic {topic:?} is listed twice")));
                }
                out.insert(topic, count);
            }
            Ok(out)
        }
    }
    deserializer.deserialize_map(UniqueKeys)
}

/// Runs `assign` with the arguments that follow it; returns the exit code. Prints the
/// assignment as one line of JSON on `out`, warnings on `err`.
pub fn assign_command(args: &[String], input: &mut dyn Read, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    if let Some(first) = args.first() {
        if first == "-h" || first == "--help" {
            return if writeln!(out, "{USAGE}").is_ok() { 0 } else { 1 };
        }
        let _ = writeln!(err, "kafka-sandbox assign: unexpected argument {first:?}; the group is read from stdin\n{USAGE}");
        return 2;
    }
    match run(input) {
        Ok((json, warnings)) => {
            for warning in warnings {
                let _ = writeln!(err, "warning: {}", escape_controls(&warning));
            }
            if writeln!(out, "{json}").and_then(|()| out.flush()).is_err() {
                return 1;
            }
            0
        }
        Err(message) => {
            let _ = writeln!(err, "kafka-sandbox assign: {message}");
            2
        }
    }
}

/// The text with control characters written as escapes (`\n`, `\u{1b}`), so a topic or
/// member named with a newline cannot split one warning over several lines.
fn escape_controls(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { c.escape_debug().to_string() } else { c.to_string() }).collect()
}

/// Reads, validates and assigns; returns the JSON text and the warnings.
fn run(input: &mut dyn Read) -> Result<(String, Vec<String>), String> {
    let mut bytes = Vec::new();
    input.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read stdin: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(format!("the input is larger than {MAX_INPUT_BYTES} bytes"));
    }
    let text = String::from_utf8(bytes)
        .map_err(|e| format!("the input is not UTF-8 text (invalid byte at offset {})", e.utf8_error().valid_up_to()))?;
    let group: GroupInput = parse_json(&text).map_err(|e| format!("invalid group JSON: {e}"))?;
    match group.protocol.as_deref() {
        None | Some("classic") => {}
        Some("consumer") => return run_consumer(group),
        Some(other) => return Err(format!("\"protocol\": {other:?} is not a group protocol; use \"classic\" or \"consumer\"")),
    }
    if group.topic_ids.is_some() || group.seed.is_some() {
        return Err("\"topic_ids\" and \"seed\" belong to \"protocol\": \"consumer\" (the classic assignors do not read topic ids)".into());
    }
    let strategy: Strategy = group.strategy.parse().map_err(|e| format!("{e}"))?;
    let members: Vec<Subscription> = group
        .members
        .into_iter()
        .map(|m| Subscription {
            member_id: m.member_id,
            group_instance_id: m.group_instance_id,
            topics: m.subscription,
            owned: m.owned,
            generation: m.generation,
        })
        .collect();
    // Refuse what no group leader receives: Kafka's assignors are not defined on it.
    check_leader_input(&group.topics, &members).map_err(|e| e.to_string())?;
    let outcome = assign(strategy, &group.topics, &members).map_err(|e| e.to_string())?;
    let json = serde_json::to_string(&outcome.assignment).map_err(|e| format!("cannot write the assignment as JSON: {e}"))?;
    Ok((json, outcome.warnings))
}

/// KIP-848: the coordinator's own assignor (`uniform` or `range`) over the members, each
/// `owned` list being its stored target assignment in the record's order.
fn run_consumer(group: GroupInput) -> Result<(String, Vec<String>), String> {
    let assignor = match group.strategy.as_str() {
        "uniform" => ServerAssignor::Uniform,
        "range" => ServerAssignor::Range,
        other => {
            return Err(format!(
                "\"strategy\": {other:?} is not a broker-side assignor; with \"protocol\": \"consumer\" use \"uniform\" or \"range\" (group.consumer.assignors)"
            ))
        }
    };
    let seed = group.seed.unwrap_or(0);
    let given = group.topic_ids.unwrap_or_default();
    let mut ids: BTreeMap<String, Uuid> = BTreeMap::new();
    for (topic, text) in &given {
        let id = Uuid::parse(text).map_err(|e| format!("\"topic_ids\".{topic:?}: {text:?} is not a topic id: {e}"))?;
        if let Some((other, _)) = ids.iter().find(|(_, v)| **v == id) {
            return Err(format!("\"topic_ids\": topics {other:?} and {topic:?} have the same id {text}"));
        }
        ids.insert(topic.clone(), id);
    }
    let mut metadata: BTreeMap<String, TopicMeta> = BTreeMap::new();
    for (topic, partitions) in &group.topics {
        let id = match ids.get(topic) {
            Some(id) => *id,
            None => {
                let mut stream = Uuid::stream(seed, topic);
                let mut id = Uuid::random(&mut stream);
                while ids.values().any(|v| *v == id) || metadata.values().any(|m| m.id == id) {
                    id = Uuid::random(&mut stream);
                }
                id
            }
        };
        metadata.insert(topic.clone(), TopicMeta { id, partitions: *partitions });
    }
    let total: u64 = metadata.values().map(|m| u64::from(m.partitions)).sum();
    if total > MAX_ASSIGNED_PARTITIONS {
        return Err(format!("the topics have {total} partitions in total; the simulator assigns at most {MAX_ASSIGNED_PARTITIONS}"));
    }
    let mut members = Vec::new();
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    let mut owners: BTreeMap<(String, u32), String> = BTreeMap::new();
    let mut instances: BTreeMap<String, String> = BTreeMap::new();
    for (i, m) in group.members.into_iter().enumerate() {
        if seen.insert(m.member_id.clone(), m.member_id.clone()).is_some() {
            return Err(format!("members[{i}].member_id: {:?} appears more than once; member ids in a group are unique", m.member_id));
        }
        if m.generation.is_some() {
            return Err(format!("members[{i}].generation: the consumer protocol has no generation in the assignor's input; leave it out"));
        }
        if let Some(instance) = &m.group_instance_id {
            if let Some(other) = instances.insert(instance.clone(), m.member_id.clone()) {
                return Err(format!(
                    "members[{i}].group_instance_id: {instance:?} is also {other:?}'s; the coordinator fences one of them"
                ));
            }
        }
        for (topic, p) in &m.owned {
            if let Some(t) = metadata.get(topic) {
                if *p >= t.partitions {
                    return Err(format!(
                        "members[{i}].owned: {topic}-{p} does not exist (topic {topic:?} has {} partitions)",
                        t.partitions
                    ));
                }
            }
            if let Some(other) = owners.insert((topic.clone(), *p), m.member_id.clone()) {
                if other != m.member_id {
                    return Err(format!(
                        "members[{i}].owned: {topic}-{p} is also owned by {other:?}; a target assignment gives a partition to one member"
                    ));
                }
                return Err(format!("members[{i}].owned: {topic}-{p} is listed twice"));
            }
        }
        members.push(Subscription {
            member_id: m.member_id,
            group_instance_id: m.group_instance_id,
            topics: m.subscription,
            owned: m.owned,
            generation: None,
        });
    }
    let outcome = assign_server(assignor, &metadata, &members);
    let json = serde_json::to_string(&outcome.assignment).map_err(|e| format!("cannot write the assignment as JSON: {e}"))?;
    Ok((json, Vec::new()))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // Tests may unwrap: a panic is a failed test.
mod tests {
    use super::*;

    fn run_with(input: &str) -> (i32, String, String) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = assign_command(&[], &mut input.as_bytes(), &mut out, &mut err);
        (code, String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap())
    }

    #[test]
    fn roundrobin_rr1() {
        let (code, out, err) = run_with(
            r#"{"strategy":"roundrobin","topics":{"t1":3,"t2":3},
                "members":[{"member_id":"c1","subscription":["t1","t2"]},
                           {"member_id":"c2","subscription":["t1","t2"],"owned":[["t1",0]],"generation":1}]}"#,
        );
        assert_eq!((code, err.as_str()), (0, ""));
        assert_eq!(out, "{\"c1\":{\"t1\":[0,2],\"t2\":[1]},\"c2\":{\"t1\":[1],\"t2\":[0,2]}}\n");
    }

    #[test]
    fn rejections() {
        for (input, needle) in [
            ("{", "invalid group JSON"),
            (r#"{"strategy":"range","topics":{},"members":[],"extra":1}"#, "unknown field `extra`"),
            (r#"{"strategy":"range","topics":{},"members":[{"member_id":"a","subscription":[],"rack":"r"}]}"#, "unknown field `rack`"),
            (r#"{"strategy":"range","topics":{"t":1,"t":2},"members":[]}"#, "listed twice"),
            (r#"{"strategy":"range","topics":{"t":-1},"members":[]}"#, "invalid group JSON"),
            (r#"{"strategy":"rangee","topics":{},"members":[]}"#, "unknown assignment strategy"),
            (
                r#"{"strategy":"range","topics":{"t":1},"members":[{"member_id":"a","group_instance_id":"i","subscription":["t"]},
                   {"member_id":"b","subscription":["t"]},{"member_id":"c","group_instance_id":"i","subscription":["t"]}]}"#,
                "members[2].group_instance_id: \"i\" is also members[0]'s; group instance ids must be unique",
            ),
            (
                r#"{"strategy":"sticky","topics":{"t":3},"members":[{"member_id":"a","subscription":["t"],"owned":[["t",2],["t",3]],"generation":1}]}"#,
                "members[0].owned[1]: partition 3 of topic \"t\" does not exist (it has 3, 0 to 2)",
            ),
        ] {
            let (code, out, err) = run_with(input);
            assert_eq!(code, 2, "{input}");
            assert!(out.is_empty(), "{input}");
            assert!(err.contains(needle), "{input}: {err}");
        }
    }

    /// kafka-semantics §5 S4 (AbstractStickyAssignorTest.testAddRemoveConsumerOneTopic): c2
    /// joins c1, which owns all three partitions.
    const S4: &str = r#"{"strategy":"STRATEGY","topics":{"t":3},
        "members":[{"member_id":"c1","subscription":["t"],"owned":[["t",0],["t",1],["t",2]],"generation":1},
                   {"member_id":"c2","subscription":["t"],"generation":1}]}"#;

    #[test]
    fn sticky_s4_moves_one_partition() {
        let (code, out, err) = run_with(&S4.replace("STRATEGY", "sticky"));
        assert_eq!((code, err.as_str()), (0, ""));
        assert_eq!(out, "{\"c1\":{\"t\":[0,1]},\"c2\":{\"t\":[2]}}\n");
    }

    #[test]
    fn cooperative_sticky_s4_withholds_the_moving_partition() {
        let (code, out, err) = run_with(&S4.replace("STRATEGY", "cooperative-sticky"));
        assert_eq!((code, err.as_str()), (0, ""));
        assert_eq!(out, "{\"c1\":{\"t\":[0,1]},\"c2\":{}}\n");
        // The second round, once c1 has revoked t-2, hands it to c2.
        let (code, out, _) =
            run_with(&S4.replace("STRATEGY", "cooperative-sticky").replace(r#"["t",0],["t",1],["t",2]"#, r#"["t",0],["t",1]"#));
        assert_eq!(code, 0);
        assert_eq!(out, "{\"c1\":{\"t\":[0,1]},\"c2\":{\"t\":[2]}}\n");
    }

    #[test]
    fn sticky_claim_conflicts_are_warned() {
        // Both claim t-0 in generation 1: neither keeps it (Kafka logs an error).
        let (code, out, err) = run_with(
            r#"{"strategy":"sticky","topics":{"t":2},
                "members":[{"member_id":"a","subscription":["t"],"owned":[["t",0]],"generation":1},
                           {"member_id":"b","subscription":["t"],"owned":[["t",0],["t",1]],"generation":1}]}"#,
        );
        assert_eq!(code, 0);
        assert_eq!(out, "{\"a\":{\"t\":[0]},\"b\":{\"t\":[1]}}\n");
        assert!(err.starts_with("warning: Found multiple consumers"), "{err}");
    }

    /// Owned partitions of a topic without metadata (deleted, or unknown to the leader) are
    /// possible in Kafka and ignored by every assignor, so they are accepted.
    #[test]
    fn owned_partitions_of_topics_without_metadata_are_accepted() {
        for strategy in ["range", "roundrobin", "sticky", "cooperative-sticky"] {
            let (code, out, err) = run_with(&format!(
                r#"{{"strategy":"{strategy}","topics":{{"t":1,"gone":0}},
                    "members":[{{"member_id":"a","subscription":["t"],"owned":[["gone",5],["old",9],["t",0]],"generation":1}}]}}"#
            ));
            assert_eq!((code, err.as_str(), out.as_str()), (0, "", "{\"a\":{\"t\":[0]}}\n"), "{strategy}");
        }
    }

    /// Found by tests/fuzz: a topic named "\n" split its warning over two lines.
    #[test]
    fn warnings_stay_on_one_line_each() {
        let (code, _, err) = run_with(r#"{"strategy":"range","topics":{},"members":[{"member_id":"a","subscription":["\n","x\u001b"]}]}"#);
        assert_eq!(code, 0);
        assert_eq!(
            err,
            "warning: Skipping assignment for topic \\n since no metadata is available\n\
             warning: Skipping assignment for topic x\\u{1b} since no metadata is available\n"
        );
    }

    #[test]
    fn arguments_are_rejected() {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = assign_command(&["x".to_string()], &mut "".as_bytes(), &mut out, &mut err);
        assert_eq!(code, 2);
        assert!(out.is_empty());
    }
}
