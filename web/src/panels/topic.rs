//! The topic: its replication settings, and each partition's leader, epoch, ISR and the
//! leader's log (committed below the HW), with the records leader changes lost.

use super::brokers::loss_title;
use super::record_style;
use crate::i18n::{self, Lang};
use crate::state::Action;
use crate::view::{self, Loss, Marker, OffsetMarks, PartMarks, SentIndex};
use kafka_sandbox_core::command::TopicCommand;
use kafka_sandbox_core::snapshot::{PartitionView, ProducerView, TopicView as TopicSnapshot};
use kafka_sandbox_core::SimTime;
use std::rc::Rc;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct TopicProps {
    pub lang: Lang,
    /// The snapshot's topics (shared with the brokers panel), how many brokers (the
    /// replication factors offered), the time (which records were just appended) and the
    /// producers (what became of records a partition lost).
    pub topics: Rc<Vec<TopicSnapshot>>,
    pub brokers: u32,
    pub now: SimTime,
    pub producers: Rc<Vec<ProducerView>>,
    /// What is drawn on each log: offsets, groups' committed offsets, members' positions,
    /// records held unprocessed.
    #[prop_or_default]
    pub marks: Rc<OffsetMarks>,
    /// The compacted topics' logs (issue 19): segments, the cleaner, latest value per key.
    #[prop_or_default]
    pub compaction: Rc<crate::compaction::Compactions>,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn TopicView(p: &TopicProps) -> Html {
    let lang = p.lang;
    let brokers = p.brokers;
    html! {
        <div class="panel topics">
            { for p.topics.iter().enumerate().map(|(ti, t)| html! {
                <div class="topic" data-topic={t.name.clone()}>
                    <h2>{ i18n::TOPIC.get(lang) }{ " " }<code>{ &t.name }</code></h2>
                    { settings(lang, t, brokers, &p.dispatch) }
                    if t.partitions.len() > view::MAP_FROM_PARTITIONS {
                        <PartitionMap {lang} cells={view::partition_map(t)} />
                    }
                    { for t.partitions.iter().enumerate().map(|(i, part)| html! {
                        <PartitionRow key={part.partition} {lang} at={PartAt::new(&p.topics, &p.producers, ti, i)}
                            fresh_from={fresh_from(p.now.ms(), part)}
                            marks={p.marks.get(&(t.name.clone(), part.partition)).cloned().unwrap_or_default()}
                            compaction={p.compaction.get(&(t.name.clone(), part.partition)).cloned()}
                            dispatch={p.dispatch.clone()} />
                    }) }
                    <p class="legend">
                        <span class="item"><span class="swatch solid" />{ i18n::LEGEND_COMMITTED.get(lang) }</span>
                        <span class="item"><span class="swatch dashed" />{ i18n::LEGEND_UNCOMMITTED.get(lang) }</span>
                        if t.partitions.iter().any(|p| p.records.iter().any(|r| r.txn.is_some())) {
                            <span class="item"><span class="swatch marker" />{ crate::i18n_txn::TXN_MARKER_COMMIT.get(lang) }{ " / " }{ crate::i18n_txn::TXN_MARKER_ABORT.get(lang) }</span>
                            <span class="item" title={crate::i18n_txn::TXN_ABORTED_HINT.get(lang)}><span class="swatch aborted" />{ crate::i18n_txn::TXN_FATE_ABORTED.get(lang) }</span>
                            <span class="item" title={crate::i18n_txn::TXN_ONGOING_HINT.get(lang)}><span class="swatch open" />{ crate::i18n_txn::TXN_FATE_OPEN.get(lang) }</span>
                        }
                        if p.compaction.keys().any(|(name, _)| *name == t.name) {
                            { super::compaction::legend(lang) }
                        }
                    </p>
                    { offsets_legend(lang, &groups_on(&p.marks, &t.name)) }
                </div>
            }) }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct MapProps {
    lang: Lang,
    cells: Vec<view::MapCell>,
}

/// Every partition of a big topic as a small cell, darker with more records, dashed when
/// under-replicated, red when offline; a click scrolls to that partition's row. It renders
/// again only when a cell changed.
#[component]
fn PartitionMap(p: &MapProps) -> Html {
    let lang = p.lang;
    let go = Callback::from(|e: MouseEvent| {
        use wasm_bindgen::JsCast;
        let Some(cell) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
        let (Some(n), Ok(Some(topic))) = (cell.get_attribute("data-p"), cell.closest(".topic")) else { return };
        if let Ok(Some(row)) = topic.query_selector(&format!("#partition-{n}")) {
            row.scroll_into_view();
        }
    });
    html! {
        <div class="pmap-wrap">
            <div class="pmap" role="list" aria-label={i18n::PARTITION_MAP.get(lang)} onclick={go}>
                { for p.cells.iter().map(|c| {
                    let title = format!(
                        "P{} · {} · {} {} · {} {}",
                        c.partition,
                        c.leader.map_or_else(|| i18n::OFFLINE.get(lang).to_string(), |l| format!("{} B{l}", i18n::PARTITION_LEADER.get(lang))),
                        i18n::LEO.get(lang),
                        c.log_end_offset,
                        i18n::HW.get(lang),
                        c.high_watermark
                    );
                    html! {
                        <span role="listitem" class={classes!("pm", format!("l{}", c.level), c.under_replicated.then_some("under"), c.leader.is_none().then_some("off"))}
                            data-p={c.partition.to_string()} {title}>{ c.partition }</span>
                    }
                }) }
            </div>
            <p class="legend muted small">{ i18n::PARTITION_MAP_HINT.get(lang) }</p>
        </div>
    }
}

/// Replication factor (rebuilds the run), `min.insync.replicas`, unclean election.
fn settings(lang: Lang, t: &TopicSnapshot, brokers: u32, dispatch: &Callback<Action>) -> Html {
    let topic = t.name.clone();
    let set_rf = dispatch.reform(move |e: Event| {
        let v = e.target_unchecked_into::<HtmlSelectElement>().value();
        Action::SetReplicationFactor { topic: topic.clone(), replication_factor: v.parse().unwrap_or(1) }
    });
    let topic = t.name.clone();
    let set_min = dispatch.reform(move |e: Event| {
        let v = e.target_unchecked_into::<HtmlSelectElement>().value();
        Action::Apply(TopicCommand::min_insync_replicas(topic.clone(), v.parse().unwrap_or(1)).into())
    });
    let topic = t.name.clone();
    let set_unclean = dispatch.reform(move |e: Event| {
        Action::Apply(TopicCommand::unclean_leader_election(topic.clone(), e.target_unchecked_into::<HtmlInputElement>().checked()).into())
    });
    let rf = t.replication_factor;
    html! {
        <div class="topic-settings">
            <label title={i18n::RF_HINT.get(lang)}>
                { i18n::REPLICATION_FACTOR.get(lang) }
                <select class="rf" onchange={set_rf}>
                    { for (1..=brokers.max(rf)).map(|n| html! { <option value={n.to_string()} selected={n == rf}>{ n }</option> }) }
                </select>
            </label>
            <label title={i18n::MIN_ISR_HINT.get(lang)}>
                { "min.insync.replicas" }
                <select class="min-isr" onchange={set_min}>
                    { for (1..=rf.max(1)).map(|n| html! { <option value={n.to_string()} selected={n == t.min_insync_replicas}>{ n }</option> }) }
                </select>
            </label>
            <label title={i18n::UNCLEAN_HINT.get(lang)}>
                <input type="checkbox" class="unclean" checked={t.unclean_leader_election_enable} onchange={set_unclean} />
                { "unclean.leader.election.enable" }
            </label>
            <span class="topic-id" title={i18n::TOPIC_ID_HINT.get(lang)}>
                { i18n::TOPIC_ID.get(lang) }{ ": " }<code>{ t.id.to_string() }</code>
            </span>
        </div>
    }
}

/// How long a record stays marked as just appended.
const FRESH_MS: u64 = 600;

/// The first offset of `part`'s records appended in the last [`FRESH_MS`] (offsets grow
/// with append time), `u64::MAX` if none: rows compare it rather than the clock.
fn fresh_from(now: u64, part: &PartitionView) -> u64 {
    part.records.iter().find(|r| now.saturating_sub(r.appended_at.ms()) < FRESH_MS).map_or(u64::MAX, |r| r.offset)
}

/// One partition of one topic in a snapshot's topics, with the producers (what became of
/// the records it lost). Rows compare the partition, not every topic: a big topic
/// re-renders only the partitions that changed.
#[derive(Clone)]
pub struct PartAt {
    pub topics: Rc<Vec<TopicSnapshot>>,
    pub producers: Rc<Vec<ProducerView>>,
    pub topic: usize,
    pub index: usize,
}

impl PartAt {
    pub fn new(topics: &Rc<Vec<TopicSnapshot>>, producers: &Rc<Vec<ProducerView>>, topic: usize, index: usize) -> Self {
        PartAt { topics: topics.clone(), producers: producers.clone(), topic, index }
    }

    pub fn part(&self) -> Option<&PartitionView> {
        self.topics.get(self.topic)?.partitions.get(self.index)
    }

    /// The topic's name, empty if there is no such topic.
    pub fn topic_name(&self) -> &str {
        self.topics.get(self.topic).map_or("", |t| t.name.as_str())
    }

    /// The producers' sends by record id when the partition lost records, else none.
    pub fn sent(&self) -> SentIndex<'_> {
        match self.part() {
            Some(part) if !part.lost.is_empty() => SentIndex::of(&self.producers),
            _ => SentIndex::empty(),
        }
    }
}

impl PartialEq for PartAt {
    /// Equal when it is the same partition with the same content; a partition that lost
    /// records always renders (what became of them depends on the producers).
    fn eq(&self, other: &Self) -> bool {
        self.topic == other.topic
            && self.index == other.index
            && match (self.part(), other.part()) {
                (Some(a), Some(b)) => a.lost.is_empty() && a == b,
                _ => false,
            }
    }
}

/// The groups with an offset on `topic`'s logs, by their index (their badge).
fn groups_on(marks: &OffsetMarks, topic: &str) -> Vec<(usize, String)> {
    let mut groups: Vec<(usize, String)> = Vec::new();
    for ((t, _), m) in marks.iter() {
        if t != topic {
            continue;
        }
        for o in m.committed.iter().chain(&m.positions) {
            if !groups.iter().any(|(i, _)| *i == o.group_index) {
                groups.push((o.group_index, o.group.clone()));
            }
        }
    }
    kafka_sandbox_core::sorted::sort_by_key(&mut groups, |(i, _)| *i);
    groups
}

/// The legend of what the logs draw: one sample of each marker, and which group each
/// badge is.
fn offsets_legend(lang: Lang, groups: &[(usize, String)]) -> Html {
    use i18n::classroom as w;
    html! {
        <p class="legend offsets-legend">
            <span class="item legend-title">{ w::LEGEND_OFFSETS.get(lang) }</span>
            { for groups.iter().map(|(i, g)| html! {
                <span class="item group-badge"><span class={classes!("tag", "committed", format!("g{}", i % 6))}>{ group_badge(*i) }</span><span class="gname">{ g }</span></span>
            }) }
            <span class="item"><span class="tag start">{ w::MARK_START.get(lang) }</span>{ w::MARK_START_HINT.get(lang) }</span>
            <span class="item"><span class="tag committed g0">{ "✓" }</span>{ w::LEGEND_GROUP_COMMITTED.get(lang) }</span>
            <span class="item"><span class="tag position g0">{ "▶" }</span>{ w::LEGEND_POSITION.get(lang) }</span>
            <span class="item"><span class="tag hw">{ i18n::HW.get(lang) }</span>{ w::MARK_HW_HINT.get(lang) }</span>
            <span class="item"><span class="swatch next-slot" />{ w::MARK_LEO_HINT.get(lang) }</span>
            <span class="item lso-slot"><span class="tag lso">{ w::MARK_LSO.get(lang) }</span>{ w::LEGEND_LSO_SLOT.get(lang) }</span>
            <span class="item"><span class="swatch in-hand" />{ w::LEGEND_IN_HAND.get(lang) }</span>
        </p>
    }
}

/// A group's badge on the logs: `G1`, `G2`… in the group's colour (the legend names them).
fn group_badge(group_index: usize) -> String {
    format!("G{}", group_index + 1)
}

/// One marker's tag, under the record at its offset (or the next-offset slot).
fn marker_tag(lang: Lang, m: &Marker, offset: u64) -> Html {
    use i18n::classroom as w;
    match m {
        Marker::LogStart => {
            html! { <span class="tag start" title={format!("{} ({offset})", w::MARK_START_HINT.get(lang))}>{ w::MARK_START.get(lang) }</span> }
        }
        Marker::Committed { group, group_index } => html! {
            <span class={classes!("tag", "committed", format!("g{}", group_index % 6))} data-mark-group={group.clone()} data-offset={offset.to_string()}
                title={w::committed_mark(lang, group, offset)}>{ format!("✓{}", group_badge(*group_index)) }</span>
        },
        Marker::Position { group, group_index, client_id } => html! {
            <span class={classes!("tag", "position", format!("g{}", group_index % 6))} data-mark-group={group.clone()} data-mark-client={client_id.clone()}
                data-offset={offset.to_string()} title={w::position_mark(lang, group, client_id, offset)}>{ format!("▶{client_id}") }</span>
        },
        Marker::LastStable => html! { <span class="tag lso" title={w::MARK_LSO_HINT.get(lang)}>{ w::MARK_LSO.get(lang) }</span> },
        Marker::HighWatermark => {
            html! { <span class="tag hw" title={format!("{} ({offset})", w::MARK_HW_HINT.get(lang))}>{ i18n::HW.get(lang) }</span> }
        }
        // The LEO is the next-offset slot itself.
        Marker::LogEnd => html! {},
    }
}

/// The flags under one place of the log.
fn flags(lang: Lang, offset: u64, markers: &[&Marker]) -> Html {
    if markers.iter().all(|m| matches!(m, Marker::LogEnd)) {
        return html! {};
    }
    html! { <span class="flags">{ for markers.iter().map(|m| marker_tag(lang, m, offset)) }</span> }
}

/// One record of a partition's log as a cell: its offset, value (a marker's word, a
/// tombstone struck), the markers at it and what it is to transactions and compaction.
#[allow(clippy::too_many_arguments)]
fn record_cell(
    lang: Lang,
    fresh_from: u64,
    part: &PartitionView,
    marks: &PartMarks,
    pins: &[(u64, Vec<Marker>)],
    below: u64,
    r: &kafka_sandbox_core::snapshot::RecordView,
    dispatch: &Callback<Action>,
) -> Html {
    // The markers pointing at this record: those at its offset, and those below `below`
    // (the first record shown takes the older ones).
    let here: Vec<&Marker> = pins.iter().filter(|(o, _)| *o == r.offset || *o < below).flat_map(|(_, ms)| ms.iter()).collect();
    let held = marks.held_by(r.offset);
    let held_title = held.iter().map(|h| i18n::classroom::in_hand_mark(lang, &h.group, &h.client_id)).collect::<Vec<_>>().join("; ");
    let fresh = r.offset >= fresh_from;
    let committed = r.offset < part.high_watermark;
    let key = match &r.key {
        Some(k) => format!("\"{k}\""),
        None => "null".to_string(),
    };
    let shown_value = if r.tombstone { "null" } else { r.value.as_str() };
    let mut title = format!(
        "{shown_value} · {} {} · {} {key} · {} · t={} ms",
        i18n::OFFSET.get(lang),
        r.offset,
        i18n::KEY_WORD.get(lang),
        r.producer,
        r.timestamp.ms()
    );
    if let Some(hint) = super::txn::cell_hint(lang, r) {
        title = format!("{title} · {hint}");
    }
    if let Some(hint) = super::compaction::tombstone_hint(lang, r) {
        title = format!("{title} · {hint}");
    }
    if !held_title.is_empty() {
        title = format!("{title} · {held_title}");
    }
    let value = super::txn::cell_value(lang, r)
        .map(str::to_string)
        .or_else(|| super::compaction::tombstone_value(r))
        .unwrap_or_else(|| r.value.clone());
    html! {
        <li key={r.id.0} class={classes!("cell", fresh.then_some("fresh"), committed.then_some("committed"), super::txn::cell_class(r),
                r.tombstone.then_some("tombstone"), (!held.is_empty()).then_some("in-hand"))}
            style={record_style(r.id.0)} {title} data-record={r.id.0.to_string()} data-value={r.value.clone()}
            data-key={r.key.clone().unwrap_or_default()} data-offset={r.offset.to_string()}
            tabindex="0" role="button"
            onkeydown={dispatch.reform({ let id = r.id; move |e: KeyboardEvent| if e.key() == "Enter" { Action::ShowRecord(Some(id)) } else { Action::Noop } })}
            onclick={dispatch.reform({ let id = r.id; move |_| Action::ShowRecord(Some(id)) })}>
            <span class="off">{ r.offset }</span>
            <span class="val">{ value }</span>
            { super::compaction::tombstone_word(lang, r) }
            { super::compaction::horizon_tag(lang, r) }
            { flags(lang, r.offset, &here) }
        </li>
    }
}

#[derive(Properties, PartialEq)]
struct PartitionRowProps {
    lang: Lang,
    at: PartAt,
    fresh_from: u64,
    marks: PartMarks,
    /// A compacted topic's view of this partition's log (issue 19).
    #[prop_or_default]
    compaction: Option<Rc<crate::compaction::LogCompaction>>,
    dispatch: Callback<Action>,
}

#[component]
fn PartitionRow(p: &PartitionRowProps) -> Html {
    // Whether the latest-value-per-key table shows beside the raw log (compacted topics).
    let show_latest = use_state(|| false);
    let Some(part) = p.at.part() else { return html! {} };
    let compaction = p.compaction.as_deref().map(|c| {
        let toggle = {
            let show = show_latest.clone();
            Callback::from(move |_: MouseEvent| show.set(!*show))
        };
        (c, *show_latest, toggle)
    });
    partition_row(p.lang, p.fresh_from, part, &p.marks, &p.at.sent(), compaction, &p.dispatch)
}

fn partition_row(
    lang: Lang,
    fresh_from: u64,
    part: &PartitionView,
    marks: &PartMarks,
    sent: &SentIndex<'_>,
    compaction: Option<(&crate::compaction::LogCompaction, bool, Callback<MouseEvent>)>,
    dispatch: &Callback<Action>,
) -> Html {
    let isr = part.isr.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    let summary = match part.leader {
        Some(l) => html! {
            <div class="psummary">
                { format!("{} ", i18n::PARTITION_LEADER.get(lang)) }<strong class="leader-id">{ format!("B{l}") }</strong>
                { format!(" · {} {} · ISR [{isr}]", i18n::EPOCH.get(lang), part.leader_epoch) }
            </div>
        },
        None => html! {
            <div class="psummary offline" title={i18n::OFFLINE_HINT.get(lang)}>
                <strong>{ i18n::OFFLINE.get(lang) }</strong>
                { format!(" · {} {} · ISR [{isr}]", i18n::EPOCH.get(lang), part.leader_epoch) }
            </div>
        },
    };
    let losses = view::losses(part, sent);
    let mut gone: Vec<&Loss> = losses.values().filter(|l| !matches!(l.status, view::LostStatus::Rewritten { .. })).collect();
    kafka_sandbox_core::sorted::sort_by_key(&mut gone, |l| (l.at, l.offset));
    let mut causes: Vec<kafka_sandbox_core::event::LossCause> = Vec::new();
    for l in &gone {
        if !causes.contains(&l.cause) {
            causes.push(l.cause);
        }
    }
    let leader = part.leader.map(|l| l.to_string()).unwrap_or_else(|| "none".into());
    let pins = marks.markers();
    let mut cells: Vec<Html> = Vec::with_capacity(part.records.len() + 2);
    // Offsets the cleaner removed (issue 19) are drawn as gaps, with the markers that point
    // into them, never as records: between two records, before the LEO, and before the
    // first record when the page shows every record of the log.
    let gap_cell = |gap: crate::compaction::Gap| {
        let inside: Vec<&Marker> = pins.iter().filter(|(o, _)| (gap.from..=gap.to).contains(o)).flat_map(|(_, ms)| ms.iter()).collect();
        super::compaction::gap_cell(lang, gap, flags(lang, gap.from, &inside))
    };
    let all_shown = compaction.as_ref().is_some_and(|(c, _, _)| c.records_held == part.records.len() as u64);
    let mut prev: Option<u64> = (all_shown && part.log_start_offset > 0).then(|| part.log_start_offset - 1);
    if all_shown && part.log_start_offset == 0 {
        if let Some(first) = part.records.first().filter(|r| r.offset > 0) {
            cells.push(gap_cell(crate::compaction::Gap { from: 0, to: first.offset - 1 }));
        }
    }
    for (i, r) in part.records.iter().enumerate() {
        if let Some(gap) = prev.and_then(|p| crate::compaction::gap_between(p, r.offset)) {
            cells.push(gap_cell(gap));
        }
        prev = Some(r.offset);
        // The first record shown takes the markers before it, but for those a gap holds.
        let below = match (i, all_shown) {
            (0, false) => r.offset,
            (0, true) => part.log_start_offset.min(r.offset),
            _ => 0,
        };
        cells.push(record_cell(lang, fresh_from, part, marks, &pins, below, r, dispatch));
    }
    if let Some(gap) = prev.and_then(|p| crate::compaction::gap_between(p, part.log_end_offset)) {
        cells.push(gap_cell(gap));
    }
    let log = html! {
        <ol class="log" start={part.log_start_offset.to_string()}>
            if part.records.is_empty() {
                <li key="empty" class="empty">{ i18n::EMPTY_LOG.get(lang) }</li>
            }
            { for cells }
            // The next offset, where the next record will be appended: the LEO, with
            // whatever points there (a caught-up member's position, the HW…).
            <li key="next-slot" class="next-slot" data-offset={part.log_end_offset.to_string()}
                title={format!("{} ({})", i18n::classroom::MARK_LEO_HINT.get(lang), part.log_end_offset)}>
                <span class="off">{ part.log_end_offset }</span>
                <span class="slot-label">{ i18n::LEO.get(lang) }</span>
                { flags(lang, part.log_end_offset, &pins.iter().filter(|(o, _)| *o >= part.log_end_offset || part.records.is_empty()).flat_map(|(_, ms)| ms.iter()).collect::<Vec<_>>()) }
            </li>
        </ol>
    };
    let body = match compaction {
        Some((c, show_latest, toggle)) => html! {
            <>
                { super::compaction::segment_strip(lang, c) }
                <button class={classes!("latest-toggle", show_latest.then_some("on"))} aria-pressed={show_latest.to_string()}
                    title={crate::i18n_compaction::LATEST_TOGGLE_HINT.get(lang)} onclick={toggle}>
                    { crate::i18n_compaction::LATEST_TOGGLE.get(lang) }
                </button>
                <div class={classes!("log-and-latest", show_latest.then_some("with-latest"))}>
                    { log }
                    if show_latest {
                        { super::compaction::latest_table(lang, c) }
                    }
                </div>
            </>
        },
        None => log,
    };
    html! {
        <div class={classes!("partition", part.leader.is_none().then_some("offline"))} id={format!("partition-{}", part.partition)} data-leader={leader}>
            <div class="plabel">
                <strong>{ format!("P{}", part.partition) }</strong>
                <span class="muted" title={format!("{} / {}", i18n::LEO.get(lang), i18n::HW.get(lang))}>
                    { format!("{} {} · {} {}", i18n::LEO.get(lang), part.log_end_offset, i18n::HW.get(lang), part.high_watermark) }
                </span>
                // Transactions (issue 17): the LSO beside the HW, when it means something.
                if part.last_stable_offset != part.high_watermark || part.records.iter().any(|r| r.txn.is_some()) {
                    <span class="lso" title={crate::i18n_txn::TXN_LSO_HINT.get(lang)}>{ format!(" · LSO {}", part.last_stable_offset) }</span>
                }
            </div>
            <div class="pbody">
                { summary }
                { body }
                if !gone.is_empty() {
                    <div class="lost-row">
                        <span class="lost-label">{ i18n::LOST_ROW.get(lang) }</span>
                        <ol class="log">
                            { for gone.iter().map(|l| html! {
                                <li key={l.record.0} class={classes!("cell", if l.status.is_lost() { "lost" } else { "dropped" })}
                                    style={record_style(l.record.0)} title={loss_title(lang, l)}>
                                    <span class="off">{ l.offset }</span>
                                    <span class="lv">{ &l.value }</span>
                                </li>
                            }) }
                        </ol>
                        <span class="lost-why">{ causes.iter().map(|c| i18n::loss_cause(lang, *c)).collect::<Vec<_>>().join("; ") }</span>
                    </div>
                }
            </div>
        </div>
    }
}
