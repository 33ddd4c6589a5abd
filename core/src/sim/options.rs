//! What a run keeps: the bounds on its memory, explicit and configurable.
//!
//! A simulation that runs for a simulated day produces millions of events; the page keeps
//! the newest of each kind so it stays bounded in memory at any run length. A test that
//! checks a guarantee over the whole run wants everything instead. Each bound says what is
//! dropped when it is reached, and every reader of dropped data says so
//! ([`crate::event::Trace::is_truncated`], [`crate::monitor::Monitors::is_complete`],
//! [`Sim::dropped`](crate::Sim::dropped)) rather than answering from part of the run.

/// The bounds on what a run keeps. [`SimOptions::default`] is what the page and the
/// command-line tool use; [`SimOptions::unbounded`] keeps everything (natively, for tests
/// that must see the whole run). Give them to
/// [`Scenario::build_with`](crate::Scenario::build_with) or the builder's
/// [`options`](crate::ScenarioBuilder::options).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SimOptions {
    /// Trace events kept, the newest (the count and the digest go on over all of them).
    pub trace_events: usize,
    /// Records the guarantee monitors remember per partition and per map (acknowledged
    /// records still expected in the log, send order, replica shadows). Beyond it the
    /// oldest are forgotten, and a loss of a forgotten record is no longer seen.
    pub monitor_records: usize,
    /// Findings kept, the newest (the counts go on).
    pub findings: usize,
    /// Deliveries each consumer remembers, the newest (`received_total` goes on).
    pub received_per_member: usize,
    /// Records processed twice each group remembers with their cause, the newest.
    pub duplicates_per_group: usize,
    /// Sends each producer remembers, the newest (`sent_total` goes on).
    pub sent_per_producer: usize,
    /// Records lost to a leader change each partition remembers, the newest.
    pub lost_per_partition: usize,
    /// The largest segment `__consumer_offsets` rolls at, whatever
    /// `offsets.topic.segment.bytes` says (issue 19). Its active segment is never
    /// compacted, so Kafka's 100 MiB would keep about a million commits of a busy group in
    /// memory before the first clean; below this bound the cleaner keeps each partition to
    /// its newest commits. `u64::MAX` keeps Kafka's setting as it is.
    pub offsets_segment_bytes: u64,
}

impl SimOptions {
    /// Keeps everything: memory grows with the run. For tests that check the whole run.
    pub const fn unbounded() -> Self {
        Self {
            trace_events: usize::MAX,
            monitor_records: usize::MAX,
            findings: usize::MAX,
            received_per_member: usize::MAX,
            duplicates_per_group: usize::MAX,
            sent_per_producer: usize::MAX,
            lost_per_partition: usize::MAX,
            offsets_segment_bytes: u64::MAX,
        }
    }

    /// The trace's bound.
    pub const fn with_trace_events(mut self, n: usize) -> Self {
        self.trace_events = n;
        self
    }

    /// The monitors' bound per map.
    pub const fn with_monitor_records(mut self, n: usize) -> Self {
        self.monitor_records = n;
        self
    }

    /// The bound on findings kept.
    pub const fn with_findings(mut self, n: usize) -> Self {
        self.findings = n;
        self
    }

    /// The bound on deliveries each consumer remembers.
    pub const fn with_received_per_member(mut self, n: usize) -> Self {
        self.received_per_member = n;
        self
    }

    /// The bound on sends each producer remembers.
    pub const fn with_sent_per_producer(mut self, n: usize) -> Self {
        self.sent_per_producer = n;
        self
    }

    /// The bound on records lost to a leader change each partition remembers.
    pub const fn with_lost_per_partition(mut self, n: usize) -> Self {
        self.lost_per_partition = n;
        self
    }

    /// The largest segment of `__consumer_offsets` (see [`SimOptions::offsets_segment_bytes`]).
    pub const fn with_offsets_segment_bytes(mut self, n: u64) -> Self {
        self.offsets_segment_bytes = n;
        self
    }

    /// The bound on duplicates each group remembers.
    pub const fn with_duplicates_per_group(mut self, n: usize) -> Self {
        self.duplicates_per_group = n;
        self
    }
}

/// The page's and the command-line tool's bounds: a long run stays bounded in memory.
impl Default for SimOptions {
    fn default() -> Self {
        Self {
            trace_events: 50_000,
            monitor_records: 20_000,
            findings: 500,
            received_per_member: 1_000,
            duplicates_per_group: 200,
            sent_per_producer: 500,
            lost_per_partition: 200,
            offsets_segment_bytes: 1 << 20,
        }
    }
}

/// What a run has dropped under its [`SimOptions`], counted: all zero means every reader
/// answers from the whole run. Read it with [`Sim::dropped`](crate::Sim::dropped).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Dropped {
    /// Trace events no longer kept.
    pub trace_events: u64,
    /// Records, offsets or sends the monitors forgot (their findings may miss some).
    pub monitor_records: u64,
    /// Findings no longer kept (still counted).
    pub findings: u64,
    /// Deliveries no longer remembered, over all consumers.
    pub received: u64,
    /// Duplicates no longer remembered, over all groups (still counted).
    pub duplicates: u64,
    /// Sends no longer remembered, over all producers.
    pub sent: u64,
    /// Lost records no longer remembered, over all partitions.
    pub lost: u64,
}

impl Dropped {
    /// Whether nothing was dropped.
    pub fn is_none(&self) -> bool {
        *self == Self::default()
    }
}
