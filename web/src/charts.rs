//! Numbers over time for the charts: per group and partition the consumer lag (the
//! leader's high watermark minus the group's committed offset, as `kafka-consumer-groups`
//! shows it), records produced and consumed per second, and how many members cannot
//! consume because of a rebalance. Sampled at every multiple of `every_ms` of simulated
//! time (the page stops the run at each one on its way, so the samples are the same
//! whether it played, ran to a moment or went in slices), at most `max` samples (the
//! oldest go); going back in time drops the samples after the new now.

use kafka_sandbox_core::read::Read;
use kafka_sandbox_core::vecmap::VecMap;
use kafka_sandbox_core::Sim;
use std::collections::VecDeque;
use std::rc::Rc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    pub t_ms: u64,
    /// Group → (partition label, lag).
    pub lag: VecMap<String, Vec<(String, u64)>>,
    /// Records sent by all producers, and delivered to all consumers, so far.
    pub produced: u64,
    pub consumed: u64,
    /// Members that cannot consume because of a rebalance or a crash.
    pub stopped: u32,
}

/// The samples, shared with the view without copying: a new sample replaces the `Rc`
/// (copying only the pointers), so the chart panel knows by pointer whether anything
/// changed and re-renders twice a simulated second, not every frame.
#[derive(Clone, Debug)]
pub struct Samples(pub Rc<VecDeque<Rc<Sample>>>);

impl PartialEq for Samples {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl std::ops::Deref for Samples {
    type Target = VecDeque<Rc<Sample>>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

#[derive(Clone, Debug)]
pub struct Series {
    pub samples: Samples,
    pub every_ms: u64,
    pub max: usize,
}

impl Default for Series {
    fn default() -> Self {
        Self { samples: Samples(Rc::new(VecDeque::new())), every_ms: 500, max: 240 }
    }
}

impl Series {
    /// Drops the samples taken after `now_ms` (the run went back in time).
    pub fn forget_after(&mut self, now_ms: u64) {
        if self.samples.back().is_some_and(|s| s.t_ms > now_ms) {
            let samples = Rc::make_mut(&mut self.samples.0);
            while samples.back().is_some_and(|s| s.t_ms > now_ms) {
                samples.pop_back();
            }
        }
    }

    /// The simulated moment of the next sample: the next multiple of `every_ms` after the
    /// last sample (the first: at once).
    pub fn next_sample_ms(&self, now_ms: u64) -> u64 {
        let every = self.every_ms.max(1);
        match self.samples.back() {
            None => now_ms,
            Some(s) => (s.t_ms / every + 1) * every,
        }
    }

    /// How far back from `until_ms` samples are kept: the way before that is not sampled.
    pub fn span_ms(&self) -> u64 {
        self.every_ms.saturating_mul(self.max as u64)
    }

    /// Takes a sample if the clock has reached the next one (drops the future first after
    /// going back in time).
    pub fn observe(&mut self, sim: &Sim) {
        let now = sim.now().ms();
        self.forget_after(now);
        if !self.samples.is_empty() && now < self.next_sample_ms(now) {
            return;
        }
        let samples = Rc::make_mut(&mut self.samples.0);
        if samples.len() == self.max {
            samples.pop_front();
        }
        samples.push_back(Rc::new(sample(sim.read())));
    }
}

/// One sample, read through the core's read layer (its lag is `GroupRead::lags`).
fn sample(read: Read<'_>) -> Sample {
    let lag = read.groups().map(|g| (g.id().to_string(), g.lags().map(|l| (format!("P{}", l.partition), l.lag)).collect())).collect();
    let produced = read.sent_total();
    let consumed = read.groups().flat_map(|g| g.members()).map(|m| m.received_total()).sum();
    let stopped = read.groups().flat_map(|g| g.members()).filter(|m| m.stopped()).count() as u32;
    Sample { t_ms: read.now().ms(), lag, produced, consumed, stopped }
}

/// A line of a lag chart: its label and its points (time in ms, lag).
pub type LagLine = (String, Vec<(u64, f64)>);

/// The lines of one group's lag chart: every partition while there are at most `max`;
/// beyond that (a line per partition is unreadable and slow to draw) the group's total
/// lag and the `max - 1` partitions lagging most now. Returns the lines (label, points)
/// and how many partitions the group has.
pub fn lag_lines(samples: &VecDeque<Rc<Sample>>, group: &str, max: usize, total_label: &str) -> (Vec<LagLine>, usize) {
    let Some(last) = samples.back().and_then(|x| x.lag.get(group)) else { return (Vec::new(), 0) };
    // A partition's lag in a sample: rows keep their order, so look at the same place first.
    let at = |x: &Sample, i: usize, label: &str| -> Option<u64> {
        let rows = x.lag.get(group)?;
        match rows.get(i) {
            Some((l, v)) if l == label => Some(*v),
            _ => rows.iter().find(|(l, _)| l == label).map(|(_, v)| *v),
        }
    };
    let series =
        |i: usize, label: &str| -> Vec<(u64, f64)> { samples.iter().filter_map(|x| at(x, i, label).map(|v| (x.t_ms, v as f64))).collect() };
    if last.len() <= max {
        let lines = last.iter().enumerate().map(|(i, (label, _))| (label.clone(), series(i, label))).collect();
        return (lines, last.len());
    }
    let mut order: Vec<usize> = (0..last.len()).collect();
    kafka_sandbox_core::sorted::sort_by_key(&mut order, |&i| (std::cmp::Reverse(last[i].1), i));
    let total =
        samples.iter().filter_map(|x| x.lag.get(group).map(|rows| (x.t_ms, rows.iter().map(|(_, v)| *v).sum::<u64>() as f64))).collect();
    let mut lines = vec![(total_label.to_string(), total)];
    lines.extend(order.into_iter().take(max.saturating_sub(1)).map(|i| (last[i].0.clone(), series(i, &last[i].0))));
    (lines, last.len())
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
            sim.run_to(kafka_sandbox_core::SimTime(t));
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

    fn lag_sample(t_ms: u64, lags: &[u64]) -> Rc<Sample> {
        let rows = lags.iter().enumerate().map(|(p, l)| (format!("P{p}"), *l)).collect();
        Rc::new(Sample { t_ms, lag: VecMap::from([("g".to_string(), rows)]), produced: 0, consumed: 0, stopped: 0 })
    }

    #[test]
    fn a_big_group_charts_its_total_and_the_partitions_lagging_most() {
        let few: VecDeque<Rc<Sample>> = [lag_sample(0, &[1, 2]), lag_sample(500, &[3, 0])].into();
        let (lines, parts) = lag_lines(&few, "g", 8, "total");
        assert_eq!(parts, 2);
        assert_eq!(lines, vec![("P0".into(), vec![(0, 1.0), (500, 3.0)]), ("P1".into(), vec![(0, 2.0), (500, 0.0)])]);
        let lags: Vec<u64> = (0..240).map(|p| (p * 7 % 240) as u64).collect();
        let many: VecDeque<Rc<Sample>> = [lag_sample(0, &vec![1; 240]), lag_sample(500, &lags)].into();
        let (lines, parts) = lag_lines(&many, "g", 4, "total");
        assert_eq!(parts, 240);
        let labels: Vec<&str> = lines.iter().map(|(l, _)| l.as_str()).collect();
        // 7p mod 240 is largest (239, 238, 237) at p = 137, 34, 171.
        assert_eq!(labels, vec!["total", "P137", "P34", "P171"]);
        assert_eq!(lines[0].1, vec![(0, 240.0), (500, lags.iter().sum::<u64>() as f64)]);
        assert_eq!(lines[1].1, vec![(0, 1.0), (500, 239.0)]);
        assert_eq!(lag_lines(&many, "nobody", 4, "total").1, 0);
    }
}
