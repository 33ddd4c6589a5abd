//! The scenario editor: the current scenario as a form in a side panel. Apply loads it
//! through the same check as pasted JSON; Cancel or Esc closes it and changes nothing.
//! The working copy (a `Draft`) lives here, not in the page's model.

use super::send;
use crate::draft::{self, Draft, Field, Kind, List, Problem};
use crate::i18n::{self, Lang, Msg};
use crate::state::Action;
use std::rc::Rc;
use web_sys::{HtmlElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct EditorProps {
    pub lang: Lang,
    /// The current scenario's JSON, read once when the editor opens.
    pub json: Rc<String>,
    pub dispatch: Callback<Action>,
    pub on_close: Callback<()>,
}

/// What the learner does in the form.
#[derive(Clone)]
pub enum Edit {
    Set(Field, String),
    AddTopic,
    AddProducer,
    AddSend(u64),
    AddGroup,
    AddMember(u64),
    AddConnector,
    AddRow(u64),
    AddChange(u64),
    AddStreams,
    /// Removes an item of a list, by its key.
    Remove(List, u64),
    ClearTimeline,
    /// A fault scheduled on the timeline (a moment in ms and the command).
    AddCommand(u64, kafka_sandbox_core::command::Command),
    /// Removes the timeline's command at this index.
    RemoveCommand(usize),
    /// Apply was refused: the form stays as it is and says why.
    Refused(Problem),
}

#[derive(Clone, PartialEq)]
struct Form {
    /// The working copy, or why the current scenario could not be read.
    draft: Result<Draft, String>,
    /// Why the last Apply was refused (cleared by the next change).
    problem: Option<Problem>,
}

impl Reducible for Form {
    type Action = Edit;

    fn reduce(self: Rc<Self>, edit: Edit) -> Rc<Self> {
        let mut form = Rc::unwrap_or_clone(self);
        let Ok(d) = &mut form.draft else { return Rc::new(form) };
        match edit {
            Edit::Refused(p) => {
                form.problem = Some(p);
                return Rc::new(form);
            }
            Edit::Set(f, text) => d.set(f, &text),
            Edit::AddTopic => d.add_topic(),
            Edit::AddProducer => d.add_producer(),
            Edit::AddSend(k) => d.add_send(k),
            Edit::AddGroup => d.add_group(),
            Edit::AddMember(k) => d.add_member(k),
            Edit::AddConnector => d.add_connector(),
            Edit::AddRow(k) => d.add_row(k),
            Edit::AddChange(k) => d.add_change(k),
            Edit::AddStreams => d.add_streams(),
            Edit::Remove(list, k) => d.remove(list, k),
            Edit::ClearTimeline => d.clear_timeline(),
            Edit::AddCommand(at, c) => d.add_command(at, c),
            Edit::RemoveCommand(i) => d.remove_command(i),
        }
        form.problem = None;
        Rc::new(form)
    }
}

/// What every control needs while the form renders.
struct Ctx<'a> {
    lang: Lang,
    d: &'a Draft,
    /// The path the refusal names, if any.
    problem: Option<&'a str>,
    edit: &'a Callback<Edit>,
}

/// A control's label: a translated text or one of Kafka's setting names.
#[derive(Clone, Copy)]
enum Label {
    Msg(Msg),
    Kafka(&'static str),
}

impl From<Msg> for Label {
    fn from(m: Msg) -> Self {
        Label::Msg(m)
    }
}

impl From<&'static str> for Label {
    fn from(s: &'static str) -> Self {
        Label::Kafka(s)
    }
}

impl Ctx<'_> {
    /// The label; a long Kafka name may wrap after each dot, never inside a word.
    fn text(&self, l: Label) -> String {
        let text = match l {
            Label::Msg(m) => m.get(self.lang),
            Label::Kafka(s) => s,
        };
        // A zero-width space after each dot: still one text node, which may wrap there.
        text.replace('.', ".\u{200b}")
    }

    /// Whether the field is wrong: its text is not a value, or the refusal names it.
    fn invalid(&self, f: Field) -> bool {
        self.d.is_bad(f) || self.d.path(f).is_some_and(|p| self.problem == Some(p.as_str()))
    }

    /// Whether a refusal or an unreadable text concerns any of `fields` (a closed "more
    /// settings" box then opens, so the learner sees it).
    fn any_invalid(&self, fields: &[Field]) -> bool {
        fields.iter().any(|f| self.invalid(*f))
    }

    fn set(&self, f: Field) -> Callback<String> {
        self.edit.reform(move |text| Edit::Set(f, text))
    }

    /// One labelled control for `f`, of the kind the draft says.
    fn field(&self, f: Field, label: impl Into<Label>, hint: Option<Msg>) -> Html {
        self.control(f, label.into(), hint)
    }

    /// [`field`](Self::field) once for every kind of label (generic, its body was compiled
    /// twice into the page).
    fn control(&self, f: Field, label: Label, hint: Option<Msg>) -> Html {
        let Some(path) = self.d.path(f) else { return Html::default() };
        let id = draft::dom_id(&path);
        let label = self.text(label);
        let title = hint.map(|h| AttrValue::from(h.get(self.lang)));
        let invalid = self.invalid(f).then_some("true");
        let value = self.d.get(f);
        let set = self.set(f);
        let on_input = {
            let set = set.clone();
            Callback::from(move |e: InputEvent| set.emit(e.target_unchecked_into::<HtmlInputElement>().value()))
        };
        let on_select = {
            let set = set.clone();
            Callback::from(move |e: Event| set.emit(e.target_unchecked_into::<HtmlSelectElement>().value()))
        };
        let control = match self.d.kind(f) {
            Kind::Number { lo, hi } | Kind::OptNumber { lo, hi } => html! {
                <input type="number" {id} min={lo.to_string()} max={hi.map(|h| h.to_string())} step="1"
                    inputmode="numeric" {value} aria-invalid={invalid} oninput={on_input} />
            },
            Kind::Check => {
                let onchange =
                    Callback::from(move |e: Event| set.emit(e.target_unchecked_into::<HtmlInputElement>().checked().to_string()));
                return html! {
                    <label class="ed-check" for={id.clone()} {title}>
                        <input type="checkbox" {id} checked={value == "true"} aria-invalid={invalid} {onchange} />
                        <span>{ label.clone() }</span>
                    </label>
                };
            }
            Kind::Choice(names) => html! {
                <select {id} aria-invalid={invalid} onchange={on_select}>
                    { for names.iter().map(|n| html! {
                        <option value={*n} selected={value == *n}>{ choice_label(self.lang, n) }</option>
                    }) }
                </select>
            },
            Kind::Topic => {
                let topics = &self.d.scenario().topics;
                let missing = !topics.iter().any(|t| t.name == value);
                html! {
                    <select {id} aria-invalid={invalid} onchange={on_select}>
                        if missing {
                            <option value={value.clone()} selected=true>{ value.clone() }</option>
                        }
                        { for topics.iter().map(|t| html! {
                            <option value={t.name.clone()} selected={t.name == value}>{ t.name.clone() }</option>
                        }) }
                    </select>
                }
            }
            Kind::Text | Kind::OptText | Kind::List => html! {
                <input type="text" {id} {value} spellcheck="false" aria-invalid={invalid} oninput={on_input} />
            },
        };
        html! {
            <label class={classes!("ed-field", matches!(self.d.kind(f), Kind::List).then_some("wide"))} {title}>
                <span class="ed-label">{ label }</span>
                { control }
            </label>
        }
    }

    /// Checkboxes for a subscription: one per topic of the scenario.
    fn topic_boxes(&self, legend: Msg, field: impl Fn(u64) -> Field) -> Html {
        let s = self.d.scenario();
        html! {
            <fieldset class="ed-topics">
                <legend>{ legend.get(self.lang) }</legend>
                { for self.d.topic_keys().iter().zip(&s.topics).map(|(&k, t)| {
                    let f = field(k);
                    let Some(path) = self.d.path(f) else { return Html::default() };
                    let id = draft::dom_id(&path);
                    let set = self.set(f);
                    let onchange = Callback::from(move |e: Event| {
                        set.emit(e.target_unchecked_into::<HtmlInputElement>().checked().to_string())
                    });
                    html! {
                        <label class="ed-check" for={id.clone()}>
                            <input type="checkbox" {id} checked={self.d.get(f) == "true"} {onchange} />
                            <span>{ t.name.clone() }</span>
                        </label>
                    }
                }) }
            </fieldset>
        }
    }

    /// A "more settings" box, open when something inside is wrong.
    fn more(&self, fields: &[Field], body: Html) -> Html {
        html! {
            <details class="ed-more" open={self.any_invalid(fields)}>
                <summary>{ i18n::ED_MORE.get(self.lang) }</summary>
                <div class="ed-grid">{ body }</div>
            </details>
        }
    }

    fn remove_button(&self, name: &str, edit: Edit) -> Html {
        let label = i18n::ed_remove(self.lang, name);
        let onclick = send(self.edit, edit);
        html! {
            <button type="button" class="ed-remove" aria-label={label.clone()} title={label} {onclick}>
                { format!("× {}", i18n::ED_REMOVE.get(self.lang)) }
            </button>
        }
    }
}

/// The label of a select's value (the format's own name when Kafka's word is the label).
fn choice_label(lang: Lang, name: &str) -> String {
    use kafka_sandbox_core::config::CommitMode;
    let msg = match name {
        "built_in" => i18n::PARTITIONER_BUILT_IN,
        "round_robin" => i18n::PARTITIONER_ROUND_ROBIN,
        "default" => i18n::ED_IDEMP_DEFAULT,
        "true" => i18n::ED_ON,
        "false" => i18n::ED_OFF,
        "consumer" => i18n::PROTOCOL_CONSUMER,
        "pull" => i18n::ED_PULL,
        "push" => i18n::ED_PUSH,
        "insert" => i18n::ED_INSERT,
        "update" => i18n::ED_UPDATE,
        "filter" => i18n::ED_OP_FILTER,
        "map_upper" => i18n::ED_OP_MAP_UPPER,
        "count_by_key" => i18n::ED_OP_COUNT,
        "auto" => return i18n::commit_mode(lang, CommitMode::Auto).into(),
        "sync_after_processing" => return i18n::commit_mode(lang, CommitMode::SyncAfterProcessing).into(),
        "async_after_processing" => return i18n::commit_mode(lang, CommitMode::AsyncAfterProcessing).into(),
        "before_processing" => return i18n::commit_mode(lang, CommitMode::BeforeProcessing).into(),
        "off" => return i18n::commit_mode(lang, CommitMode::Off).into(),
        other => return other.to_string(),
    };
    msg.get(lang).to_string()
}

/// The refusal as the learner reads it.
fn problem_text(lang: Lang, p: &Problem) -> String {
    match p {
        Problem::Unreadable { path, text, lo, hi } => i18n::ed_unreadable(lang, path, text, *lo, *hi),
        Problem::Invalid(e) => crate::messages::scenario_refusal(lang, e),
    }
}

#[component]
pub fn Editor(p: &EditorProps) -> Html {
    let lang = p.lang;
    let form = {
        let json = p.json.clone();
        use_reducer(move || Form { draft: Draft::from_json(&json).map_err(|e| e.to_string()), problem: None })
    };
    // Open with the first field focused, so Tab and typing start in the form.
    use_effect_with((), |_| {
        focus_by_id("ed-name");
    });
    // After a refusal, the field it names (if it is one) takes the focus.
    {
        let target = form.problem.as_ref().and_then(|p| {
            let path = p.path().to_string();
            (!path.is_empty()).then(|| draft::dom_id(&path))
        });
        use_effect_with(target, |target| {
            if let Some(id) = target {
                focus_by_id(id);
            }
        });
    }
    let cancel = send(&p.on_close, ());
    let onkeydown = {
        let close = p.on_close.clone();
        Callback::from(move |e: KeyboardEvent| {
            // The page's own keys (space = play, ← →, ?) must not fire while typing here.
            e.stop_propagation();
            if e.key() == "Escape" {
                e.prevent_default();
                close.emit(());
            }
        })
    };
    let apply = {
        let form = form.clone();
        let dispatch = p.dispatch.clone();
        let close = p.on_close.clone();
        Callback::from(move |_: MouseEvent| {
            let Ok(d) = &form.draft else { return };
            match d.finish() {
                // The reducer parses and checks the text again, as for pasted JSON: the same
                // path keeps autosave, sharing, history and the "custom" label working.
                Ok(s) => {
                    dispatch.emit(Action::LoadJson(s.to_json_pretty()));
                    close.emit(());
                }
                Err(problem) => form.dispatch(Edit::Refused(problem)),
            }
        })
    };
    let edit: Callback<Edit> = {
        let form = form.clone();
        Callback::from(move |e| form.dispatch(e))
    };
    let body = match &form.draft {
        Ok(d) => {
            let cx = Ctx { lang, d, problem: form.problem.as_ref().map(Problem::path), edit: &edit };
            html! { <>{ general(&cx) }{ cluster(&cx) }{ topics(&cx) }{ producers(&cx) }{ groups(&cx) }{ connectors(&cx) }{ streams(&cx) }{ timeline(&cx) }</> }
        }
        Err(e) => html! { <p class="ed-error" role="alert">{ format!("{}{e}", i18n::ED_LOAD_FAILED.get(lang)) }</p> },
    };
    html! {
        // Focusable itself, so a click on its background keeps the keys inside it.
        <aside id="scenario-editor" class="editor" role="dialog" aria-labelledby="editor-title" tabindex="-1" {onkeydown}>
            <div class="editor-head">
                <h2 id="editor-title">{ i18n::ED_TITLE.get(lang) }</h2>
                <button type="button" class="editor-x" aria-label={i18n::ED_CANCEL.get(lang)} title={i18n::ED_CLOSE_HINT.get(lang)}
                    onclick={cancel.clone()}>{ "×" }</button>
            </div>
            <div class="editor-body">
                <p class="muted small ed-intro">{ i18n::ED_INTRO.get(lang) }</p>
                { body }
            </div>
            <div class="editor-foot">
                if let Some(problem) = &form.problem {
                    <p id="editor-error" class="ed-error" role="alert">
                        <strong>{ i18n::ED_NOT_APPLIED.get(lang) }</strong>{ problem_text(lang, problem) }
                    </p>
                }
                <button type="button" id="editor-apply" class="primary" title={i18n::ED_APPLY_HINT.get(lang)}
                    disabled={form.draft.is_err()} onclick={apply}>{ i18n::ED_APPLY.get(lang) }</button>
                <button type="button" id="editor-cancel" title={i18n::ED_CLOSE_HINT.get(lang)} onclick={cancel}>
                    { i18n::ED_CANCEL.get(lang) }
                </button>
            </div>
        </aside>
    }
}

fn focus_by_id(id: &str) {
    let el = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(id));
    if let Some(el) = el.and_then(|e| wasm_bindgen::JsCast::dyn_into::<HtmlElement>(e).ok()) {
        let _ = el.focus();
    }
}

fn general(cx: &Ctx) -> Html {
    let lang = cx.lang;
    let description = cx.d.get(Field::at("description", &[]));
    let set = cx.set(Field::at("description", &[]));
    let oninput = Callback::from(move |e: InputEvent| set.emit(e.target_unchecked_into::<HtmlTextAreaElement>().value()));
    html! {
        <fieldset class="ed-section" id="ed-general">
            <legend>{ i18n::ED_GENERAL.get(lang) }</legend>
            <div class="ed-grid">
                { cx.field(Field::at("name", &[]), i18n::ED_NAME, None) }
                { cx.field(Field::at("seed", &[]), i18n::ED_SEED, Some(i18n::ED_SEED_HINT)) }
                { cx.field(Field::at("duration_ms", &[]), i18n::ED_DURATION, None) }
                <label class="ed-field wide">
                    <span class="ed-label">{ i18n::ED_DESCRIPTION.get(lang) }</span>
                    <textarea id="ed-description" rows="2" value={description} {oninput} />
                </label>
            </div>
        </fieldset>
    }
}

fn cluster(cx: &Ctx) -> Html {
    let c = |p| Field::at(p, &[]);
    let more = [
        c("cluster.replica_lag_time_max_ms"),
        c("cluster.replica_fetch_wait_max_ms"),
        c("cluster.broker_session_timeout_ms"),
        c("cluster.group_consumer_heartbeat_interval_ms"),
        c("cluster.group_consumer_session_timeout_ms"),
        c("cluster.log_retention_check_interval_ms"),
        c("cluster.auto_leader_rebalance_enable"),
        c("cluster.leader_imbalance_check_interval_seconds"),
        c("cluster.group_min_session_timeout_ms"),
        c("cluster.group_max_session_timeout_ms"),
        c("cluster.offsets_retention_minutes"),
        c("cluster.offsets_retention_check_interval_ms"),
        c("cluster.transaction_state_log_replication_factor"),
        c("cluster.transaction_state_log_min_isr"),
        c("cluster.transaction_max_timeout_ms"),
        c("cluster.transaction_abort_timed_out_transaction_cleanup_interval_ms"),
        c("cluster.log_cleaner_backoff_ms"),
        c("cluster.offsets_topic_segment_bytes"),
    ];
    html! {
        <fieldset class="ed-section" id="ed-cluster">
            <legend>{ i18n::ED_CLUSTER.get(cx.lang) }</legend>
            <div class="ed-grid">
                { cx.field(c("cluster.brokers"), i18n::ED_BROKERS, Some(i18n::ED_BROKERS_HINT)) }
                { cx.field(c("cluster.network_latency_ms"), i18n::ED_LATENCY, None) }
                { cx.field(c("cluster.group_initial_rebalance_delay_ms"), "group.initial.rebalance.delay.ms", None) }
                { cx.field(c("cluster.kafka_version"), i18n::ED_KAFKA_VERSION, Some(i18n::KAFKA_VERSION_HINT)) }
                { cx.field(c("cluster.offsets_topic_replication_factor"), "offsets.topic.replication.factor", Some(i18n::ED_OFFSETS_RF_HINT)) }
            </div>
            { cx.more(&more, html! { <>
                { cx.field(more[0], "replica.lag.time.max.ms", None) }
                { cx.field(more[1], "replica.fetch.wait.max.ms", None) }
                { cx.field(more[2], "broker.session.timeout.ms", None) }
                { cx.field(more[3], "group.consumer.heartbeat.interval.ms", None) }
                { cx.field(more[4], "group.consumer.session.timeout.ms", None) }
                { cx.field(more[5], "log.retention.check.interval.ms", None) }
                { cx.field(more[6], "auto.leader.rebalance.enable", Some(i18n::ED_AUTO_REBALANCE_HINT)) }
                { cx.field(more[7], "leader.imbalance.check.interval.seconds", None) }
                { cx.field(more[8], "group.min.session.timeout.ms", Some(i18n::ED_MIN_SESSION_HINT)) }
                { cx.field(more[9], "group.max.session.timeout.ms", None) }
                { cx.field(more[10], "offsets.retention.minutes", Some(i18n::ED_OFFSETS_RETENTION_HINT)) }
                { cx.field(more[11], "offsets.retention.check.interval.ms", None) }
                { cx.field(more[12], "transaction.state.log.replication.factor", Some(crate::i18n_txn::ED_TXN_RF_HINT)) }
                { cx.field(more[13], "transaction.state.log.min.isr", None) }
                { cx.field(more[14], "transaction.max.timeout.ms", None) }
                { cx.field(more[15], "transaction.abort.timed.out.transaction.cleanup.interval.ms", None) }
                { cx.field(more[16], "log.cleaner.backoff.ms", None) }
                { cx.field(more[17], "offsets.topic.segment.bytes", Some(crate::i18n_compaction::ED_OFFSETS_SEGMENT_HINT)) }
            </> }) }
        </fieldset>
    }
}

fn topics(cx: &Ctx) -> Html {
    let lang = cx.lang;
    let s = cx.d.scenario();
    let add = send(cx.edit, Edit::AddTopic);
    html! {
        <fieldset class="ed-section" id="ed-topics">
            <legend>{ i18n::ED_TOPICS.get(lang) }</legend>
            { for cx.d.topic_keys().iter().zip(&s.topics).enumerate().map(|(i, (&k, t))| {
                let f = |p| Field::at(p, &[k]);
                let more = [
                    f("topics[].message_timestamp_type"), f("topics[].retention_ms"), f("topics[].retention_bytes"),
                    f("topics[].segment_bytes"), f("topics[].segment_ms"), f("topics[].topic_id"),
                    f("topics[].cleanup_policy"), f("topics[].min_compaction_lag_ms"), f("topics[].max_compaction_lag_ms"),
                    f("topics[].delete_retention_ms"),
                ];
                html! {
                    <div key={k} class="ed-item" id={format!("ed-topics-{i}")}>
                        <div class="ed-item-head">
                            <strong>{ t.name.clone() }</strong>
                            { cx.remove_button(&t.name, Edit::Remove(List::Topics, k)) }
                        </div>
                        <div class="ed-grid">
                            { cx.field(f("topics[].name"), i18n::ED_TOPIC_NAME, None) }
                            { cx.field(f("topics[].partitions"), i18n::ED_PARTITIONS, Some(i18n::ED_PARTITIONS_HINT)) }
                            { cx.field(f("topics[].replication_factor"), i18n::REPLICATION_FACTOR, Some(i18n::ED_RF_HINT)) }
                            { cx.field(f("topics[].min_insync_replicas"), i18n::ED_MIN_ISR, Some(i18n::MIN_ISR_HINT)) }
                            { cx.field(f("topics[].unclean_leader_election_enable"), i18n::ED_UNCLEAN, Some(i18n::UNCLEAN_HINT)) }
                        </div>
                        { cx.more(&more, html! { <>
                            { cx.field(more[0], "message.timestamp.type", None) }
                            { cx.field(more[1], "retention.ms", None) }
                            { cx.field(more[2], "retention.bytes", None) }
                            { cx.field(more[3], "segment.bytes", None) }
                            { cx.field(more[4], "segment.ms", None) }
                            { cx.field(more[5], i18n::ED_TOPIC_ID, Some(i18n::TOPIC_ID_HINT)) }
                            { cx.field(more[6], "cleanup.policy", None) }
                            { cx.field(more[7], "min.compaction.lag.ms", None) }
                            { cx.field(more[8], "max.compaction.lag.ms", None) }
                            { cx.field(more[9], "delete.retention.ms", None) }
                        </> }) }
                    </div>
                }
            }) }
            <button type="button" class="ed-add ed-add-topic" disabled={!cx.d.can_add_topic()} onclick={add}>
                { i18n::ED_ADD_TOPIC.get(lang) }
            </button>
        </fieldset>
    }
}

fn producers(cx: &Ctx) -> Html {
    let lang = cx.lang;
    let s = cx.d.scenario();
    let add = send(cx.edit, Edit::AddProducer);
    html! {
        <fieldset class="ed-section" id="ed-producers">
            <legend>{ i18n::PRODUCERS.get(lang) }</legend>
            { for cx.d.producer_keys().iter().zip(&s.producers).enumerate().map(|(i, (&k, p))| {
                let f = |p| Field::at(p, &[k]);
                let more = [
                    f("producers[].config.batch_size"), f("producers[].config.retries"), f("producers[].config.retry_backoff_ms"),
                    f("producers[].config.retry_backoff_max_ms"), f("producers[].config.request_timeout_ms"),
                    f("producers[].config.delivery_timeout_ms"), f("producers[].config.max_in_flight_requests_per_connection"),
                    f("producers[].config.buffer_memory"), f("producers[].config.max_block_ms"),
                    f("producers[].config.transaction_timeout_ms"),
                ];
                let add_send = send(cx.edit, Edit::AddSend(k));
                html! {
                    <div key={k} class="ed-item" id={format!("ed-producers-{i}")}>
                        <div class="ed-item-head">
                            <strong>{ p.name.clone() }</strong>
                            { cx.remove_button(&p.name, Edit::Remove(List::Producers, k)) }
                        </div>
                        <div class="ed-grid">
                            { cx.field(f("producers[].name"), i18n::ED_PRODUCER_NAME, None) }
                            { cx.field(f("producers[].config.partitioner"), i18n::PARTITIONER, None) }
                            { cx.field(f("producers[].config.acks"), "acks", Some(i18n::ACKS_HINT)) }
                            { cx.field(f("producers[].config.enable_idempotence"), "enable.idempotence", Some(i18n::ED_IDEMP_HINT)) }
                            { cx.field(f("producers[].config.linger_ms"), "linger.ms", Some(i18n::ED_LINGER_HINT)) }
                            { cx.field(f("producers[].config.transactional_id"), "transactional.id", Some(crate::i18n_txn::ED_TXN_ID_HINT)) }
                        </div>
                        { cx.more(&more, html! { <>
                            { cx.field(more[0], "batch.size", None) }
                            { cx.field(more[1], "retries", None) }
                            { cx.field(more[2], "retry.backoff.ms", None) }
                            { cx.field(more[3], "retry.backoff.max.ms", None) }
                            { cx.field(more[4], "request.timeout.ms", None) }
                            { cx.field(more[5], "delivery.timeout.ms", None) }
                            { cx.field(more[6], "max.in.flight.requests.per.connection", None) }
                            { cx.field(more[7], "buffer.memory", Some(i18n::ED_BUFFER_MEMORY_HINT)) }
                            { cx.field(more[8], "max.block.ms", None) }
                            { cx.field(more[9], "transaction.timeout.ms", None) }
                        </> }) }
                        <h4 class="ed-sub">{ i18n::ED_SENDS.get(lang) }</h4>
                        { for cx.d.send_keys(i).iter().zip(&p.send).map(|(&sk, plan)| {
                            let f = |p| Field::at(p, &[k, sk]);
                            let name = format!("{} → {}", p.name, plan.topic);
                            html! {
                                <div key={sk} class="ed-plan">
                                    <div class="ed-grid">
                                        { cx.field(f("producers[].send[].topic"), i18n::ED_SEND_TOPIC, None) }
                                        { cx.field(f("producers[].send[].count"), i18n::ED_COUNT, Some(i18n::ED_COUNT_HINT)) }
                                        { cx.field(f("producers[].send[].start_ms"), i18n::ED_START, None) }
                                        <div class="ed-rate">
                                            { cx.field(f("producers[].send[].interval_ms"), i18n::ED_INTERVAL, None) }
                                            <span class="muted small">{ i18n::ed_rate(lang, plan.interval_ms) }</span>
                                        </div>
                                        { cx.field(f("producers[].send[].values"), i18n::ED_VALUES, None) }
                                        { cx.field(f("producers[].send[].keys"), i18n::ED_KEYS, Some(i18n::ED_KEYS_HINT)) }
                                    </div>
                                    { cx.remove_button(&name, Edit::Remove(List::Sends, sk)) }
                                </div>
                            }
                        }) }
                        <button type="button" class="ed-add ed-add-send" disabled={s.topics.is_empty()} onclick={add_send}>
                            { i18n::ED_ADD_SEND.get(lang) }
                        </button>
                    </div>
                }
            }) }
            <button type="button" class="ed-add ed-add-producer" disabled={!cx.d.can_add_producer()} onclick={add}>
                { i18n::ED_ADD_PRODUCER.get(lang) }
            </button>
        </fieldset>
    }
}

fn groups(cx: &Ctx) -> Html {
    let lang = cx.lang;
    let s = cx.d.scenario();
    let add = send(cx.edit, Edit::AddGroup);
    html! {
        <fieldset class="ed-section" id="ed-groups">
            <legend>{ i18n::GROUPS.get(lang) }</legend>
            { for cx.d.group_keys().iter().zip(&s.groups).enumerate().map(|(i, (&k, g))| {
                let f = |p| Field::at(p, &[k]);
                let consumer = g.config.group_protocol == kafka_sandbox_core::config::GroupProtocol::Consumer;
                let push = g.config.delivery == kafka_sandbox_core::config::DeliveryMode::Push;
                let add_member = send(cx.edit, Edit::AddMember(k));
                // A refusal about the group as a whole (its members are checked when it is
                // created) outlines the group.
                let whole = cx.problem == Some(format!("groups[{i}]").as_str());
                html! {
                    <div key={k} class={classes!("ed-item", whole.then_some("invalid"))} id={format!("ed-groups-{i}")}>
                        <div class="ed-item-head">
                            <strong>{ g.id.clone() }</strong>
                            { cx.remove_button(&g.id, Edit::Remove(List::Groups, k)) }
                        </div>
                        <div class="ed-grid">
                            { cx.field(f("groups[].id"), i18n::GROUP_ID, None) }
                            { cx.field(f("groups[].config.group_protocol"), "group.protocol", Some(i18n::PROTOCOL_CONSUMER_HINT)) }
                            if consumer {
                                { cx.field(f("groups[].config.remote_assignor"), "group.remote.assignor", Some(i18n::ED_REMOTE_ASSIGNOR_HINT)) }
                            } else {
                                { cx.field(f("groups[].config.assignor"), i18n::ASSIGNOR, Some(i18n::ED_ASSIGNOR_HINT)) }
                            }
                            { cx.field(f("groups[].config.auto_offset_reset"), "auto.offset.reset", None) }
                            { cx.field(f("groups[].config.isolation_level"), "isolation.level", Some(crate::i18n_txn::ED_ISOLATION_HINT)) }
                            { cx.field(f("groups[].config.delivery"), i18n::ED_DELIVERY, Some(i18n::ED_DELIVERY_HINT)) }
                            if push {
                                { cx.field(f("groups[].config.push_buffer_max_records"), i18n::ED_PUSH_BUFFER, Some(i18n::ED_PUSH_BUFFER_HINT)) }
                            }
                        </div>
                        if push {
                            <p class="ed-push-note small">
                                <span class="ed-push-badge">{ i18n::PUSH_BADGE.get(lang) }</span>{ " " }{ i18n::PUSH_HINT.get(lang) }
                            </p>
                        }
                        { cx.topic_boxes(i18n::ED_GROUP_TOPICS, |t| Field::at("groups[].topics[]", &[k, t])) }
                        <h4 class="ed-sub">{ i18n::ED_MEMBERS.get(lang) }</h4>
                        { for cx.d.member_keys(i).iter().zip(&g.members).map(|(&mk, m)| member(cx, k, mk, m, consumer)) }
                        <button type="button" class="ed-add ed-add-member" aria-label={i18n::ed_add_member(lang, &g.id)}
                            disabled={!cx.d.can_add_member(k)} onclick={add_member}>
                            { i18n::ADD_MEMBER.get(lang) }
                        </button>
                    </div>
                }
            }) }
            <button type="button" class="ed-add ed-add-group" disabled={!cx.d.can_add_group()} onclick={add}>
                { i18n::ED_ADD_GROUP.get(lang) }
            </button>
        </fieldset>
    }
}

fn member(cx: &Ctx, g: u64, k: u64, m: &kafka_sandbox_core::command::MemberSpec, consumer_protocol: bool) -> Html {
    let f = |p| Field::at(p, &[g, k]);
    let more = [
        f("groups[].members[].config.max_poll_records"),
        f("groups[].members[].config.fetch_max_wait_ms"),
        f("groups[].members[].config.auto_commit_interval_ms"),
        f("groups[].members[].config.metadata_max_age_ms"),
    ];
    html! {
        <div key={k} class="ed-member" data-ed-client={m.client_id.clone()}>
            <div class="ed-item-head">
                <strong>{ m.client_id.clone() }</strong>
                { cx.remove_button(&m.client_id, Edit::Remove(List::Members, k)) }
            </div>
            <div class="ed-grid">
                { cx.field(f("groups[].members[].client_id"), "client.id", None) }
                { cx.field(f("groups[].members[].group_instance_id"), i18n::ED_INSTANCE_ID, Some(i18n::ADD_STATIC_HINT)) }
                { cx.field(f("groups[].members[].config.commit_mode"), i18n::ED_COMMIT_MODE, Some(i18n::COMMIT_MODE_HINT)) }
                { cx.field(f("groups[].members[].config.processing_ms"), i18n::ED_PROCESSING, Some(i18n::PROCESSING_HINT)) }
                // Under KIP-848 the broker's group.consumer.* settings apply instead.
                if !consumer_protocol {
                    { cx.field(f("groups[].members[].config.session_timeout_ms"), "session.timeout.ms", Some(i18n::ED_SESSION_HINT)) }
                    { cx.field(f("groups[].members[].config.heartbeat_interval_ms"), "heartbeat.interval.ms", None) }
                }
                { cx.field(f("groups[].members[].config.max_poll_interval_ms"), "max.poll.interval.ms", Some(i18n::ED_MAX_POLL_HINT)) }
            </div>
            { cx.more(&more, html! { <>
                { cx.field(more[0], "max.poll.records", None) }
                { cx.field(more[1], "fetch.max.wait.ms", None) }
                { cx.field(more[2], "auto.commit.interval.ms", None) }
                { cx.field(more[3], "metadata.max.age.ms", None) }
                <div class="wide">{ cx.topic_boxes(i18n::ED_MEMBER_TOPICS, |t| Field::at("groups[].members[].topics[]", &[g, k, t])) }</div>
            </> }) }
        </div>
    }
}

fn connectors(cx: &Ctx) -> Html {
    let lang = cx.lang;
    let s = cx.d.scenario();
    let add = send(cx.edit, Edit::AddConnector);
    html! {
        <fieldset class="ed-section" id="ed-connectors">
            <legend>{ i18n::ED_CONNECTORS.get(lang) }</legend>
            { for cx.d.connector_keys().iter().zip(&s.connectors).enumerate().map(|(i, (&k, c))| {
                let f = |p| Field::at(p, &[k]);
                let add_row = send(cx.edit, Edit::AddRow(k));
                let add_change = send(cx.edit, Edit::AddChange(k));
                html! {
                    <div key={k} class="ed-item" id={format!("ed-connectors-{i}")}>
                        <div class="ed-item-head">
                            <strong>{ c.name.clone() }</strong>
                            { cx.remove_button(&c.name, Edit::Remove(List::Connectors, k)) }
                        </div>
                        <div class="ed-grid ed-cols3">
                            { cx.field(f("connectors[].name"), i18n::ED_CONNECTOR_NAME, None) }
                            { cx.field(f("connectors[].topic"), i18n::ED_SEND_TOPIC, None) }
                            { cx.field(f("connectors[].mode"), "mode", Some(i18n::ED_MODE_HINT)) }
                            { cx.field(f("connectors[].poll_interval_ms"), "poll.interval.ms", Some(i18n::ED_POLL_HINT)) }
                            { cx.field(f("connectors[].offset_flush_interval_ms"), "offset.flush.interval.ms", Some(i18n::FLUSHED_HINT)) }
                        </div>
                        <h4 class="ed-sub">{ i18n::ED_ROWS.get(lang) }</h4>
                        { for cx.d.row_keys(i).iter().zip(&c.table.rows).map(|(&rk, r)| html! {
                            <div key={rk} class="ed-row">
                                { cx.field(Field::at("connectors[].table.rows[].id", &[k, rk]), "id", None) }
                                { cx.field(Field::at("connectors[].table.rows[].value", &[k, rk]), i18n::ED_ROW_VALUE, None) }
                                { cx.remove_button(&format!("{} id {}", c.name, r.id), Edit::Remove(List::Rows, rk)) }
                            </div>
                        }) }
                        <button type="button" class="ed-add ed-add-row" disabled={!cx.d.can_add_row(k)} onclick={add_row}>
                            { i18n::ED_ADD_ROW.get(lang) }
                        </button>
                        <h4 class="ed-sub">{ i18n::ED_CHANGES.get(lang) }</h4>
                        { for cx.d.change_keys(i).iter().zip(&c.table.changes).map(|(&ck, ch)| {
                            let f = |p| Field::at(p, &[k, ck]);
                            html! {
                                <div key={ck} class="ed-row ed-change">
                                    { cx.field(f("connectors[].table.changes[].at_ms"), i18n::ED_AT, None) }
                                    { cx.field(f("connectors[].table.changes[]"), i18n::ED_CHANGE_KIND, None) }
                                    { cx.field(f("connectors[].table.changes[].*.id"), "id", None) }
                                    { cx.field(f("connectors[].table.changes[].*.value"), i18n::ED_ROW_VALUE, None) }
                                    { cx.remove_button(&format!("{} {} ms", c.name, ch.at_ms), Edit::Remove(List::Changes, ck)) }
                                </div>
                            }
                        }) }
                        <button type="button" class="ed-add ed-add-change" disabled={!cx.d.can_add_change(k)} onclick={add_change}>
                            { i18n::ED_ADD_CHANGE.get(lang) }
                        </button>
                    </div>
                }
            }) }
            <button type="button" class="ed-add ed-add-connector" disabled={!cx.d.can_add_connector()} onclick={add}>
                { i18n::ED_ADD_CONNECTOR.get(lang) }
            </button>
        </fieldset>
    }
}

fn streams(cx: &Ctx) -> Html {
    use kafka_sandbox_core::sim::streams::StreamsOp;
    let lang = cx.lang;
    let s = cx.d.scenario();
    let add = send(cx.edit, Edit::AddStreams);
    html! {
        <fieldset class="ed-section" id="ed-streams">
            <legend>{ i18n::ED_STREAMS.get(lang) }</legend>
            { for cx.d.streams_keys().iter().zip(&s.streams).enumerate().map(|(i, (&k, a))| {
                let f = |p| Field::at(p, &[k]);
                html! {
                    <div key={k} class="ed-item" id={format!("ed-streams-{i}")}>
                        <div class="ed-item-head">
                            <strong>{ a.application_id.clone() }</strong>
                            { cx.remove_button(&a.application_id, Edit::Remove(List::Streams, k)) }
                        </div>
                        <div class="ed-grid ed-cols3">
                            { cx.field(f("streams[].application_id"), "application.id", Some(i18n::ED_APP_ID_HINT)) }
                            { cx.field(f("streams[].source"), i18n::ED_SOURCE, None) }
                            { cx.field(f("streams[].sink"), i18n::ED_SINK, None) }
                            { cx.field(f("streams[].op"), i18n::ED_OP, Some(i18n::ED_OP_HINT)) }
                            { match a.op {
                                StreamsOp::Filter { .. } => cx.field(f("streams[].op.filter.value_contains"), i18n::ED_VALUE_CONTAINS, None),
                                StreamsOp::CountByKey { .. } => cx.field(f("streams[].op.count_by_key.store"), i18n::ED_STORE, Some(i18n::ED_STORE_HINT)),
                                StreamsOp::MapUpper {} => Html::default(),
                            } }
                            { cx.field(f("streams[].instances"), i18n::ED_INSTANCES, Some(i18n::ED_INSTANCES_HINT)) }
                            { cx.field(f("streams[].commit_interval_ms"), "commit.interval.ms", None) }
                            { cx.field(f("streams[].processing_ms"), i18n::ED_PROCESSING, Some(i18n::PROCESSING_HINT)) }
                            { cx.field(f("streams[].processing_guarantee"), "processing.guarantee", Some(crate::i18n_txn::ED_GUARANTEE_HINT)) }
                        </div>
                    </div>
                }
            }) }
            <button type="button" class="ed-add ed-add-streams" disabled={!cx.d.can_add_streams()} onclick={add}>
                { i18n::ED_ADD_STREAMS.get(lang) }
            </button>
        </fieldset>
    }
}

fn timeline(cx: &Ctx) -> Html {
    let n = cx.d.timeline_len();
    let clear = send(cx.edit, Edit::ClearTimeline);
    let sc = cx.d.scenario();
    let brokers: Vec<u32> = (0..sc.cluster.brokers).collect();
    let members: Vec<(String, String)> =
        sc.groups.iter().flat_map(|g| g.members.iter().map(|m| (g.id.clone(), m.client_id.clone()))).collect();
    html! {
        <fieldset class="ed-section" id="ed-timeline">
            <legend>{ i18n::ED_TIMELINE.get(cx.lang) }</legend>
            if n > 0 {
                <p class="small">{ i18n::ed_timeline(cx.lang, n) }</p>
                <ol class="ed-commands small">
                    { for cx.d.timeline().into_iter().enumerate().map(|(i, (at, c))| html! {
                        <li key={i}>
                            <span class="t">{ i18n::seconds(at) }</span>{ " " }<code>{ c }</code>
                            { cx.remove_button(&format!("{} {}", i18n::seconds(at), i + 1), Edit::RemoveCommand(i)) }
                        </li>
                    }) }
                </ol>
                <button type="button" class="ed-clear-timeline" onclick={clear}>{ i18n::ED_CLEAR_TIMELINE.get(cx.lang) }</button>
            }
            <FaultForm lang={cx.lang} {brokers} {members} edit={cx.edit.clone()} />
        </fieldset>
    }
}

/// The faults the form schedules (the scenario format's `type`s).
const FAULTS: &[(&str, i18n::Msg)] = &[
    ("crash_broker", i18n::classroom::FAULT_CRASH_BROKER),
    ("shutdown_broker", i18n::classroom::FAULT_SHUTDOWN_BROKER),
    ("restart_broker", i18n::classroom::FAULT_RESTART_BROKER),
    ("isolate_broker", i18n::classroom::FAULT_ISOLATE_BROKER),
    ("heal_broker", i18n::classroom::FAULT_HEAL_BROKER),
    ("crash_member", i18n::classroom::FAULT_CRASH_MEMBER),
];

/// The command a fault form makes: `kind` of [`FAULTS`], `target` a broker id or
/// `group/client` for a member; `None` for anything else (nothing is scheduled).
pub fn fault_command(kind: &str, target: &str) -> Option<kafka_sandbox_core::command::Command> {
    use kafka_sandbox_core::command::{BrokerCommand as B, GroupCommand as G};
    if kind == "crash_member" {
        let (group, client_id) = target.split_once('/')?;
        return Some(G::CrashMember { group: group.to_string(), client_id: client_id.to_string() }.into());
    }
    let broker: u32 = target.parse().ok()?;
    Some(
        match kind {
            "crash_broker" => B::CrashBroker { broker },
            "shutdown_broker" => B::ShutdownBroker { broker },
            "restart_broker" => B::RestartBroker { broker },
            "isolate_broker" => B::IsolateBroker { broker },
            "heal_broker" => B::HealBroker { broker },
            _ => return None,
        }
        .into(),
    )
}

#[derive(Properties, PartialEq)]
struct FaultFormProps {
    lang: Lang,
    brokers: Vec<u32>,
    /// (group, client id) of every member.
    members: Vec<(String, String)>,
    edit: Callback<Edit>,
}

/// "Schedule a fault": when (s), what, which broker or member; Add puts it on the timeline.
#[component]
fn FaultForm(p: &FaultFormProps) -> Html {
    let lang = p.lang;
    let kind = use_state(|| "crash_broker".to_string());
    let target = use_state(String::new);
    let at = use_state(|| "5".to_string());
    let is_member = *kind == "crash_member";
    let targets: Vec<(String, String)> = if is_member {
        p.members.iter().map(|(g, c)| (format!("{g}/{c}"), format!("{c} ({g})"))).collect()
    } else {
        p.brokers.iter().map(|b| (b.to_string(), format!("broker {b}"))).collect()
    };
    let chosen = if targets.iter().any(|(v, _)| *v == *target) {
        (*target).clone()
    } else {
        targets.first().map(|(v, _)| v.clone()).unwrap_or_default()
    };
    let at_ms = crate::state::parse_seconds(&at);
    let add = {
        let (edit, kind, chosen) = (p.edit.clone(), (*kind).clone(), chosen.clone());
        Callback::from(move |_: MouseEvent| {
            if let (Some(ms), Some(c)) = (at_ms, fault_command(&kind, &chosen)) {
                edit.emit(Edit::AddCommand(ms, c));
            }
        })
    };
    let on_kind = {
        let kind = kind.clone();
        Callback::from(move |e: Event| kind.set(e.target_unchecked_into::<HtmlSelectElement>().value()))
    };
    let on_target = {
        let target = target.clone();
        Callback::from(move |e: Event| target.set(e.target_unchecked_into::<HtmlSelectElement>().value()))
    };
    let on_at = {
        let at = at.clone();
        Callback::from(move |e: InputEvent| at.set(e.target_unchecked_into::<HtmlInputElement>().value()))
    };
    use i18n::classroom as w;
    html! {
        <div class="ed-fault" role="group" aria-label={w::FAULT_SCHEDULE.get(lang)}>
            <strong class="small">{ w::FAULT_SCHEDULE.get(lang) }</strong>
            <label>{ w::FAULT_AT.get(lang) }
                <input id="ed-fault-at" type="text" inputmode="decimal" size="6" value={(*at).clone()} oninput={on_at}
                    aria-invalid={at_ms.is_none().to_string()} />
            </label>
            <label>{ w::FAULT_WHAT.get(lang) }
                <select id="ed-fault-kind" onchange={on_kind}>
                    { for FAULTS.iter().map(|(v, m)| html! { <option value={*v} selected={*kind == *v}>{ m.get(lang) }</option> }) }
                </select>
            </label>
            <label>{ if is_member { w::FAULT_MEMBER.get(lang) } else { w::FAULT_BROKER.get(lang) } }
                <select id="ed-fault-target" onchange={on_target}>
                    { for targets.iter().map(|(v, l)| html! { <option value={v.clone()} selected={*v == chosen}>{ l }</option> }) }
                </select>
            </label>
            <button type="button" id="ed-fault-add" disabled={at_ms.is_none() || targets.is_empty()} onclick={add}>{ w::FAULT_ADD.get(lang) }</button>
            if at_ms.is_none() {
                <p class="small ed-problem" role="alert">{ w::FAULT_BAD_TIME.get(lang) }</p>
            }
        </div>
    }
}
