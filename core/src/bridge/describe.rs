//! A consumer group as `kafka-consumer-groups.sh --describe --group G` prints it: one row
//! per partition, GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST
//! CLIENT-ID, in the tool's order and column widths (`ConsumerGroupCommand.
//! collectGroupsOffsets` and `printOffsets`).

use crate::read::{GroupRead, GroupState};
use crate::record::TopicPartition;

/// The tool's word for a missing value (`MISSING_COLUMN_VALUE`).
pub const MISSING: &str = "-";

/// The host `kafka-consumer-groups.sh` shows for a member: the sandbox's clients have no
/// address, so the loopback stands in (on the bridge's cluster it is the `tools`
/// container's address, as the coordinator sees it; a caveat says so, and
/// docs/fidelity.md).
pub const HOST: &str = "/127.0.0.1";

/// One row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The group's id.
    pub group: String,
    /// The partition.
    pub tp: TopicPartition,
    /// The group's committed offset there (CURRENT-OFFSET), if any.
    pub current_offset: Option<u64>,
    /// The partition's end as the tool reads it (`listOffsets` latest under
    /// read_uncommitted: the leader's high watermark).
    pub log_end_offset: u64,
    /// LOG-END-OFFSET minus CURRENT-OFFSET, when there is a committed offset.
    pub lag: Option<u64>,
    /// The owner's member id, client id (`None`: a committed offset no member owns).
    pub consumer_id: Option<String>,
    /// The owner's client id.
    pub client_id: Option<String>,
}

/// The group as the tool describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Describe {
    /// The group's id.
    pub group: String,
    /// Its state (the tool warns on stderr while it rebalances, and says so when empty).
    pub state: GroupState,
    /// The rows, in the tool's order.
    pub rows: Vec<Row>,
}

/// The describe of `group`, from the read layer.
///
/// The order is the tool's: members with partitions, the most partitions first (a stable
/// sort over the coordinator's member order), each member's partitions by partition
/// number (the tool sorts a set by `partition()` only; ties across topics are in topic
/// order here); then committed offsets of partitions no member owns, by topic and
/// partition (the tool's order there is a `HashMap`'s).
pub fn describe(g: GroupRead<'_>, high_watermark: impl Fn(&TopicPartition) -> Option<u64>) -> Describe {
    let mut owners: Vec<(&str, &str, &[TopicPartition])> = g
        .members()
        .filter(|m| !m.assigned().is_empty() && g.running_members().any(|r| r == m.client_id()))
        .map(|m| (m.member_id(), m.client_id(), m.assigned()))
        .collect();
    crate::sorted::sort_by_key(&mut owners, |(_, _, parts)| std::cmp::Reverse(parts.len()));
    let row = |tp: &TopicPartition, owner: Option<(&str, &str)>| {
        let current_offset = g.committed(tp);
        let log_end_offset = high_watermark(tp).unwrap_or(0);
        Row {
            group: g.id().to_string(),
            tp: tp.clone(),
            current_offset,
            log_end_offset,
            lag: current_offset.map(|c| log_end_offset.saturating_sub(c)),
            consumer_id: owner.map(|(m, _)| m.to_string()),
            client_id: owner.map(|(_, c)| c.to_string()),
        }
    };
    let mut rows = Vec::new();
    let mut owned: Vec<&TopicPartition> = Vec::new();
    for (member_id, client_id, parts) in &owners {
        let mut parts: Vec<&TopicPartition> = parts.iter().collect();
        crate::sorted::sort_by_key(&mut parts, |tp| (tp.partition, tp.topic.clone()));
        for tp in parts {
            owned.push(tp);
            rows.push(row(tp, Some((member_id, client_id))));
        }
    }
    let mut orphans: Vec<&TopicPartition> = g.committed_offsets().map(|(tp, _)| tp).filter(|tp| !owned.contains(tp)).collect();
    crate::sorted::sort_by_key(&mut orphans, |tp| (tp.topic.clone(), tp.partition));
    for tp in orphans {
        rows.push(row(tp, None));
    }
    Describe { group: g.id().to_string(), state: g.state(), rows }
}

impl Describe {
    /// The table as the tool prints it: `"\n%-Gs %-Ts %-10s %-15s %-15s %-15s %-Cs %-Hs %s"`
    /// for the header and each row (G, T, C, H: the longest group, topic, consumer id and
    /// host, at least 15), then a newline. A group without rows prints only its note.
    pub fn table(&self) -> String {
        let text = |o: &Option<String>| o.clone().unwrap_or_else(|| MISSING.to_string());
        let num = |o: Option<u64>| o.map_or_else(|| MISSING.to_string(), |v| v.to_string());
        let rows: Vec<[String; 9]> = self
            .rows
            .iter()
            .map(|r| {
                [
                    r.group.clone(),
                    r.tp.topic.to_string(),
                    r.tp.partition.to_string(),
                    num(r.current_offset),
                    r.log_end_offset.to_string(),
                    num(r.lag),
                    text(&r.consumer_id),
                    if r.consumer_id.is_some() { HOST.to_string() } else { MISSING.to_string() },
                    text(&r.client_id),
                ]
            })
            .collect();
        let width = |i: usize| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0).max(15);
        let (g, t, c, h) = (width(0).max(self.group.chars().count()), width(1), width(6), width(7));
        let line = |cells: [&str; 9]| {
            format!(
                "\n{:<g$} {:<t$} {:<10} {:<15} {:<15} {:<15} {:<c$} {:<h$} {}",
                cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6], cells[7], cells[8]
            )
        };
        let mut out = String::new();
        match self.state {
            GroupState::Empty => out.push_str(&format!("\nConsumer group '{}' has no active members.\n", self.group)),
            GroupState::PreparingRebalance | GroupState::CompletingRebalance | GroupState::Reconciling => {
                out.push_str(&format!("\nWarning: Consumer group '{}' is rebalancing.\n", self.group))
            }
            GroupState::Stable => {}
        }
        if self.rows.is_empty() {
            return out;
        }
        out.push_str(&line(["GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID", "HOST", "CLIENT-ID"]));
        for r in &rows {
            out.push_str(&line([&r[0], &r[1], &r[2], &r[3], &r[4], &r[5], &r[6], &r[7], &r[8]]));
        }
        out.push('\n');
        out
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// The default scenario at 12 s, as `kafka-consumer-groups.sh --describe` prints it:
    /// the tool's columns and widths, owners by partition count then partition number,
    /// LAG = LOG-END-OFFSET − CURRENT-OFFSET, "-" where a partition has no commit.
    #[test]
    fn a_group_is_described_as_kafka_consumer_groups_prints_it() {
        let mut sim = crate::scenario::default_scenario().build().unwrap();
        sim.run_to(crate::SimTime(12_000));
        let read = sim.read();
        let g = read.group("ConsumerGroup01").unwrap();
        let d = describe(g, |tp| read.partition(tp).map(|p| p.high_watermark()));
        let parts: Vec<String> = d.rows.iter().map(|r| r.tp.to_string()).collect();
        assert_eq!(parts, ["Topic01-0", "Topic01-2", "Topic01-1", "Topic01-3"]);
        assert_eq!(d.rows[0].current_offset, Some(2));
        assert_eq!(d.rows[2].current_offset, None, "Consumer2 has not committed yet");
        assert_eq!(d.rows[2].lag, None);
        let table = d.table();
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines[0], "", "the tool starts with a newline");
        let member = g.member("Consumer1").unwrap().member_id().to_string();
        let id_width = member.len().max(15);
        assert_eq!(
            lines[1],
            format!(
                "{:<15} {:<15} {:<10} {:<15} {:<15} {:<15} {:<id_width$} {:<15} {}",
                "GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID", "HOST", "CLIENT-ID"
            )
        );
        assert_eq!(
            lines[2],
            format!(
                "{:<15} {:<15} {:<10} {:<15} {:<15} {:<15} {:<id_width$} {:<15} {}",
                "ConsumerGroup01", "Topic01", "0", "2", "2", "0", member, HOST, "Consumer1"
            )
        );
        assert!(lines[4].contains(" -               2               -      "), "{}", lines[4]);
        assert!(table.ends_with('\n'));
    }
}
