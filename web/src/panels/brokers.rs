//! Brokers as columns, each holding its partition replicas: leader or follower, in or out
//! of the ISR, LEO and HW, the records of its copy (committed solid, uncommitted dashed,
//! lost struck through), records on their way from the leader, eligible leader replicas
//! (KIP-966) tagged ELR, and buttons to crash, shut down (controlled), cut off or slow the
//! broker.

use super::record_style;
use super::send;
use super::topic::PartAt;
use crate::i18n::{self, Lang};
use crate::state::{progress, Action, SLOW_FOLLOWER_MS};
use crate::view::{self, Loss, LostStatus};
use kafka_sandbox_core::command::BrokerCommand;
use kafka_sandbox_core::read::{Flight, FlightKind};
use kafka_sandbox_core::record::BrokerId;
use kafka_sandbox_core::record::RecordId;
use kafka_sandbox_core::snapshot::{BrokerView, PartitionView, ProducerView, RecordView, ReplicaView, TopicView};
use kafka_sandbox_core::SimTime;
use std::rc::Rc;
use yew::prelude::*;

/// Most partition rows drawn: a topic of 256 partitions would bury the page.
const MAX_ROWS: usize = 24;
/// Newest records drawn per replica; older ones are counted.
const MAX_CELLS: usize = 30;

#[derive(Properties, PartialEq)]
pub struct BrokersProps {
    pub lang: Lang,
    /// The Kafka release the run models (`cluster.kafka_version`), shown in the heading.
    pub kafka_version: kafka_sandbox_core::KafkaVersion,
    /// The snapshot's brokers, and what their columns show: the topics' partitions (shared
    /// with the topic panel), the messages on the wire (replication under way, shared with
    /// the wires) at this time, and the producers (what became of lost records).
    pub brokers: Rc<Vec<BrokerView>>,
    pub topics: Rc<Vec<TopicView>>,
    pub flights: Rc<Vec<Flight>>,
    pub now: SimTime,
    pub producers: Rc<Vec<ProducerView>>,
    pub dispatch: Callback<Action>,
}

/// A replication flight heading to a follower: its values and how far it is.
type Incoming = kafka_sandbox_core::vecmap::VecMap<(usize, u32, BrokerId), Vec<(String, f64)>>;

#[component]
pub fn Brokers(p: &BrokersProps) -> Html {
    let lang = p.lang;
    let topics = &p.topics;
    let many_topics = topics.len() > 1;
    let total_rows: usize = topics.iter().map(|t| t.partitions.len()).sum();
    let rows: Vec<(usize, usize)> =
        topics.iter().enumerate().flat_map(|(ti, t)| (0..t.partitions.len()).map(move |i| (ti, i))).take(MAX_ROWS).collect();
    let mut incoming: Incoming = Incoming::new();
    for f in p.flights.iter() {
        if let FlightKind::Replicate { tp, follower, values } = &f.kind {
            let Some(ti) = topics.iter().position(|t| t.name == tp.topic) else { continue };
            let t = progress(p.now, f.sent_at, f.arrives_at);
            incoming.entry((ti, tp.partition, *follower)).or_default().push((values.join(" "), t));
        }
    }
    let columns = p.brokers.len().max(1);
    let grid_style =
        format!("grid-template-columns: repeat({columns}, minmax(0, 1fr)); grid-template-rows: auto repeat({}, auto)", rows.len());
    let span = format!("grid-row: span {}", rows.len() + 1);
    html! {
        <section class="panel brokers" id="brokers">
            <div class="brokers-head">
                <h2>{ i18n::BROKERS.get(lang) }</h2>
                <span class="kafka-version" id="kafka-version" title={ i18n::KAFKA_VERSION_HINT.get(lang) }>
                    { format!("Kafka {}", p.kafka_version) }
                </span>
                <span class="muted small">{ i18n::BROKERS_HINT.get(lang) }</span>
            </div>
            <div class="broker-grid" style={grid_style}>
                { for p.brokers.iter().map(|b| html! {
                    <BrokerColumn key={b.id} {lang} broker={b.clone()} span={span.clone()} dispatch={p.dispatch.clone()}>
                        { for rows.iter().map(|&(topic, index)| {
                            let at = PartAt::new(topics, &p.producers, topic, index);
                            let partition = at.part().map_or(0, |x| x.partition);
                            let arriving = incoming.get(&(topic, partition, b.id)).cloned().unwrap_or_default();
                            html! { <ReplicaCard key={format!("{topic}/{index}")} {lang} broker={b.id} {at} {many_topics} {arriving} /> }
                        }) }
                    </BrokerColumn>
                }) }
            </div>
            if total_rows > rows.len() {
                <p class="muted small">{ format!("{}{}", i18n::MORE_PARTITIONS.get(lang), total_rows - rows.len()) }</p>
            }
            <p class="legend muted">
                <span class="item"><span class="swatch solid" />{ i18n::LEGEND_COMMITTED.get(lang) }</span>
                <span class="item"><span class="swatch dashed" />{ i18n::LEGEND_UNCOMMITTED.get(lang) }</span>
                <span class="item"><span class="swatch struck">{ "m" }</span>{ i18n::LEGEND_LOST.get(lang) }</span>
                <span class="item"><span class="swatch dropped">{ "m" }</span>{ i18n::LEGEND_DROPPED.get(lang) }</span>
                <span class="item"><span class="swatch card-dashed" />{ i18n::LEGEND_OUT_OF_ISR.get(lang) }</span>
                <span class="item"><span class="elr-tag">{ i18n::IN_ELR.get(lang) }</span>{ i18n::LEGEND_ELR.get(lang) }</span>
            </p>
            <details class="fidelity muted small" id="fidelity">
                <summary>{ i18n::FIDELITY_TITLE.get(lang) }</summary>
                <ul>
                    { for [i18n::FIDELITY_CONTROLLER, i18n::FIDELITY_OFFSETS_TOPIC, i18n::FIDELITY_GROUP_SETTINGS, i18n::FIDELITY_DEVICES, i18n::FIDELITY_KNOWN, i18n::FIDELITY_MORE]
                        .into_iter()
                        .map(|m| html! { <li>{ m.get(lang) }</li> }) }
                </ul>
            </details>
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct BrokerColumnProps {
    lang: Lang,
    broker: BrokerView,
    span: String,
    dispatch: Callback<Action>,
    children: Html,
}

#[component]
fn BrokerColumn(p: &BrokerColumnProps) -> Html {
    let lang = p.lang;
    let b = &p.broker;
    let id = b.id;
    let d = &p.dispatch;
    let life = if b.alive {
        html! { <>
            <button class="crash" title={i18n::CRASH_HINT.get(lang)} onclick={send(d, Action::Apply(BrokerCommand::CrashBroker { broker: id }.into()))}>{ i18n::CRASH.get(lang) }</button>
            if !b.fenced && !b.isolated {
                <button class="shutdown" title={i18n::SHUTDOWN_HINT.get(lang)} onclick={send(d, Action::Apply(BrokerCommand::ShutdownBroker { broker: id }.into()))}>{ i18n::SHUTDOWN.get(lang) }</button>
            }
        </> }
    } else {
        html! { <button class="restart primary" title={i18n::RESTART_HINT.get(lang)} onclick={send(d, Action::Apply(BrokerCommand::RestartBroker { broker: id }.into()))}>{ i18n::RESTART.get(lang) }</button> }
    };
    let net = if b.isolated {
        html! { <button class="heal primary" title={i18n::RECONNECT_HINT.get(lang)} onclick={send(d, Action::Apply(BrokerCommand::HealBroker { broker: id }.into()))}>{ i18n::RECONNECT.get(lang) }</button> }
    } else {
        html! { <button class="isolate" title={i18n::CUT_OFF_HINT.get(lang)} onclick={send(d, Action::Apply(BrokerCommand::IsolateBroker { broker: id }.into()))}>{ i18n::CUT_OFF.get(lang) }</button> }
    };
    let speed = if b.slow_ms > 0 {
        html! { <button class="unslow" title={i18n::SLOW_HINT.get(lang)} onclick={send(d, Action::Apply(BrokerCommand::SlowBroker { broker: id, slow_ms: 0 }.into()))}>{ i18n::SLOW_NORMAL.get(lang) }</button> }
    } else {
        html! { <button class="slow" title={i18n::SLOW_HINT.get(lang)} onclick={send(d, Action::Apply(BrokerCommand::SlowBroker { broker: id, slow_ms: SLOW_FOLLOWER_MS }.into()))}>{ i18n::slow_button(lang, SLOW_FOLLOWER_MS) }</button> }
    };
    let healthy = b.alive && !b.isolated && !b.fenced;
    html! {
        <div class={classes!("broker", (!b.alive).then_some("crashed"), b.isolated.then_some("isolated"), b.fenced.then_some("fenced"), (b.slow_ms > 0).then_some("slow"))}
            data-broker={id.to_string()} style={p.span.clone()}>
            <div class="broker-head">
                <div class="broker-title">
                    <strong>{ i18n::broker_name(lang, id) }</strong>
                    <span class="statuses">
                        if healthy { <span class="status ok">{ i18n::BROKER_RUNNING.get(lang) }</span> }
                        if !b.alive && b.shut_down { <span class="status shut-down">{ i18n::BROKER_SHUT_DOWN.get(lang) }</span> }
                        if !b.alive && !b.shut_down { <span class="status crashed">{ i18n::BROKER_CRASHED.get(lang) }</span> }
                        if b.isolated { <span class="status cut-off">{ i18n::BROKER_CUT_OFF.get(lang) }</span> }
                        if b.fenced { <span class="status fenced" title={i18n::BROKER_FENCED_HINT.get(lang)}>{ i18n::BROKER_FENCED.get(lang) }</span> }
                        if b.slow_ms > 0 { <span class="status slow">{ i18n::slow_label(lang, b.slow_ms) }</span> }
                        // Transactions (issue 17): the transactional ids it coordinates.
                        if !b.txn_coordinator_for.is_empty() {
                            <span class="status txn-coordinator" title={crate::i18n_txn::TXN_COORDINATOR.get(lang)}>
                                { format!("{}: {}", crate::i18n_txn::TXN_COORDINATOR.get(lang), b.txn_coordinator_for.join(", ")) }
                            </span>
                        }
                    </span>
                </div>
                <div class="broker-controls">{ life }{ net }{ speed }</div>
            </div>
            { p.children.clone() }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct ReplicaCardProps {
    lang: Lang,
    broker: BrokerId,
    at: PartAt,
    many_topics: bool,
    /// Records on their way to this replica, and how far they are.
    arriving: Vec<(String, f64)>,
}

/// The card of `broker`'s replica of one partition (an empty slot if it has none, so the
/// rows of every column line up). It renders again only when the partition changed.
#[component]
fn ReplicaCard(p: &ReplicaCardProps) -> Html {
    let lang = p.lang;
    let broker = p.broker;
    let Some(part) = p.at.part() else { return html! {} };
    let topic = p.at.topic_name();
    let name = if p.many_topics { format!("{topic} · P{}", part.partition) } else { format!("P{}", part.partition) };
    let Some(r) = part.replica_logs.iter().find(|r| r.broker == broker) else {
        return html! {
            <div class="replica none" data-topic={topic.to_string()} data-partition={part.partition.to_string()}>
                <span class="muted small">{ format!("{name}: {}", i18n::NO_REPLICA.get(lang)) }</span>
            </div>
        };
    };
    let losses = if part.lost.is_empty() { kafka_sandbox_core::vecmap::VecMap::new() } else { view::losses(part, &p.at.sent()) };
    let role = if r.is_leader {
        html! { <span class="role leader">{ i18n::ROLE_LEADER.get(lang) }</span> }
    } else if part.leader.is_some() {
        html! { <span class="role follower">{ i18n::ROLE_FOLLOWER.get(lang) }</span> }
    } else {
        html! { <span class="role offline">{ i18n::ROLE_OFFLINE.get(lang) }</span> }
    };
    html! {
        <div class={classes!("replica", if r.is_leader { "leader" } else { "follower" }, if r.in_isr { "in-isr" } else { "out-isr" })}
            data-topic={topic.to_string()} data-partition={part.partition.to_string()}>
            <div class="replica-head">
                <strong class="pname">{ name }</strong>
                { role }
                <span class={classes!("isr-tag", (!r.in_isr).then_some("out"))} title={i18n::IN_ISR_HINT.get(lang)}>
                    { if r.in_isr { i18n::IN_ISR.get(lang) } else { i18n::OUT_OF_ISR.get(lang) } }
                </span>
                if r.in_elr {
                    <span class="elr-tag" title={i18n::IN_ELR_HINT.get(lang)}>{ i18n::IN_ELR.get(lang) }</span>
                }
                <span class="offsets">{ format!("{} {} · {} {}", i18n::LEO.get(lang), r.log_end_offset, i18n::HW.get(lang), r.high_watermark) }</span>
            </div>
            { replica_log(lang, r, part, &losses) }
            { for p.arriving.iter().map(|(values, t)| html! {
                <div class="incoming" title={i18n::COPYING.get(lang)}>
                    <span class="arrow">{ "⇣ " }{ values }</span>
                    <span class="bar"><span class="fill" style={format!("width: {:.0}%", t * 100.0)} /></span>
                </div>
            }) }
        </div>
    }
}

fn replica_log(lang: Lang, r: &ReplicaView, part: &PartitionView, losses: &kafka_sandbox_core::vecmap::VecMap<RecordId, Loss>) -> Html {
    let shown = r.records.len().min(MAX_CELLS);
    let first = r.records.len() - shown;
    // Records before the first one drawn (the log may start later than 0 after retention).
    let hidden = r.records.get(first).map(|x| x.offset.saturating_sub(part.log_start_offset)).unwrap_or(0);
    html! {
        <ol class="rlog">
            if r.records.is_empty() {
                <li class="empty muted">{ i18n::EMPTY_LOG.get(lang) }</li>
            }
            if hidden > 0 {
                <li class="more muted" title={i18n::EARLIER_RECORDS.get(lang)}>{ format!("+{hidden}") }</li>
            }
            { for r.records[first..].iter().map(|rec| record_cell(lang, rec, part.high_watermark, losses.get(&rec.id))) }
        </ol>
    }
}

fn record_cell(lang: Lang, rec: &RecordView, hw: u64, loss: Option<&Loss>) -> Html {
    // A copy of a record the partition lost is stale wherever it still sits.
    let (class, why) = match loss {
        Some(l) if l.status.is_lost() => ("lost", Some(loss_title(lang, l))),
        Some(l) => ("dropped", Some(loss_title(lang, l))),
        None if rec.offset < hw => ("committed", None),
        None => ("uncommitted", None),
    };
    let offset = format!("{} {}", i18n::OFFSET.get(lang), rec.offset);
    let title = match why {
        Some(w) => format!("{offset} · {w}"),
        None => format!("{offset} · {} {} · {}", i18n::EPOCH.get(lang), rec.leader_epoch, rec.producer),
    };
    // Transactions (issue 17): markers and transactional records (`txn.rs`).
    let title = match super::txn::cell_hint(lang, rec) {
        Some(h) => format!("{title} · {h}"),
        None => title,
    };
    // Compaction (issue 19): a tombstone struck, with its delete horizon in the title.
    let title = match super::compaction::tombstone_hint(lang, rec) {
        Some(h) => format!("{title} · {h}"),
        None => title,
    };
    let value = super::txn::cell_value(lang, rec)
        .map(str::to_string)
        .or_else(|| super::compaction::tombstone_value(rec))
        .unwrap_or_else(|| rec.value.clone());
    html! {
        <li key={rec.id.0} class={classes!("rcell", class, super::txn::cell_class(rec), rec.tombstone.then_some("tombstone"))} style={record_style(rec.id.0)} {title} data-value={rec.value.clone()}>
            <span class="off">{ rec.offset }</span>
            <span class="rv">{ value }</span>
            { super::compaction::tombstone_word(lang, rec) }
        </li>
    }
}

/// Why a record counts as lost (or not), for a hover title.
pub fn loss_title(lang: Lang, l: &Loss) -> String {
    let status = match l.status {
        LostStatus::Acknowledged => i18n::LOST_ACKED.get(lang).to_string(),
        LostStatus::GivenUp(e) => format!("{}{}", i18n::LOST_GIVEN_UP.get(lang), i18n::produce_error(lang, e)),
        LostStatus::Retrying => i18n::LOST_RETRYING.get(lang).to_string(),
        LostStatus::Rewritten { offset } => format!("{}{offset}", i18n::LOST_REWRITTEN.get(lang)),
        LostStatus::Unknown => i18n::LOST_UNKNOWN.get(lang).to_string(),
    };
    format!("{}: {} — {status}", i18n::lost_at(lang, l.at.ms()), i18n::loss_cause(lang, l.cause))
}
