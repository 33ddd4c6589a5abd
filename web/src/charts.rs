//! Numbers over time for the charts: per group and partition the consumer lag (the
//! leader's high watermark minus the group's committed offset, as `kafka-consumer-groups`
//! shows it), records produced and consumed per second, and how many members cannot
//! consume because of a rebalance. Sampled every `every_ms` of simulated time, at most
//! `max` samples (the oldest go); going back in time drops the samples after the new now.

use kafka_sandbox_core::group::Phase;
use kafka_sandbox_core::Sim;
use std::collections::{BTreeMap, VecDeque};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    pub t_ms: u64,
    /// Group → (partition label, lag).
    pub lag: BTreeMap<String, Vec<(String, u64)>>,
    /// Records sent by all producers, and delivered to all consumers, so far.
    pub produced: u64,
    pub consumed: u64,
    /// Members that cannot consume because of a rebalance or a crash.
    pub stopped: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Series {
    pub samples: VecDeque<Sample>,
    pub every_ms: u64,
    pub max: usize,
}

impl Default for Series {
    fn default() -> Self {
        Self { samples: VecDeque::new(), every_ms: 500, max: 240 }
    }
}

impl Series {
    /// Takes a sample if `every_ms` has passed since the last (drops the future first
    /// after going back in time).
    pub fn observe(&mut self, sim: &Sim) {
        let now = sim.now().ms();
        while self.samples.back().is_some_and(|s| s.t_ms > now) {
            self.samples.pop_back();
        }
        if self.samples.back().is_some_and(|s| now < s.t_ms + self.every_ms) {
            return;
        }
        if self.samples.len() == self.max {
            self.samples.pop_front();
        }
        self.samples.push_back(sample(sim));
    }
}

fn sample(sim: &Sim) -> Sample {
    let mut lag = BTreeMap::new();
    for g in sim.groups() {
        let mut rows = Vec::new();
        for topic in &g.topics {
            let Some(t) = sim.topic(topic) else { continue };
            for (p, part) in t.partitions.iter().enumerate() {
                let Some(log) = part.leader_log() else { continue };
                let tp = kafka_sandbox_core::record::TopicPartition::new(topic.clone(), p as u32);
                let committed = g.committed.get(&tp).copied().unwrap_or(log.log_start_offset());
                rows.push((format!("P{p}"), log.high_watermark().saturating_sub(committed)));
            }
        }
        lag.insert(g.id.clone(), rows);
    }
    let produced = sim.producers().map(|p| p.sent_total()).sum();
    let consumed = sim.groups().flat_map(|g| g.members.iter()).map(|m| m.received_total()).sum();
    let stopped = sim
        .groups()
        .flat_map(|g| g.members.iter())
        .filter(|m| m.phase == Phase::Crashed || m.not_consuming_since().is_some())
        .count() as u32;
    Sample { t_ms: sim.now().ms(), lag, produced, consumed, stopped }
}

/// Points of a polyline in a `w`×`h` box for values over the series' times.
pub fn polyline(samples: &[(u64, f64)], t0: u64, t1: u64, max: f64, w: f64, h: f64) -> String {
    let span = (t1.saturating_sub(t0)).max(1) as f64;
    let max = if max <= 0.0 { 1.0 } else { max };
    samples
        .iter()
        .map(|(t, v)| format!("{:.1},{:.1}", (t.saturating_sub(t0)) as f64 / span * w, h - (v / max).min(1.0) * h))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_follow_time_and_are_dropped_when_going_back() {
        let scenario = kafka_sandbox_core::scenario::default_scenario();
        let mut sim = scenario.build().expect("builds");
        let mut series = Series::default();
        for t in (0..=20_000).step_by(100) {
            sim.run_until(kafka_sandbox_core::SimTime(t));
            series.observe(&sim);
        }
        assert_eq!(series.samples.len(), 41, "every 500 ms from 0 to 20 s");
        let last = series.samples.back().expect("a sample");
        assert_eq!(last.produced, 7, "m1..m7");
        assert_eq!(last.consumed, 14, "every record by both groups");
        assert!(last.lag.values().flatten().all(|(_, l)| *l <= 2), "{:?}", last.lag);
        // Back in time: later samples go.
        let earlier = scenario.build().expect("builds");
        series.observe(&earlier);
        assert_eq!(series.samples.len(), 1);
        assert!(polyline(&[(0, 0.0), (10, 5.0)], 0, 10, 5.0, 100.0, 50.0).starts_with("0.0,50.0 100.0,0.0"));
    }
}
