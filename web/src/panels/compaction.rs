//! A compacted log on the page (issue 19): the segment strip (clean, dirty, active, the
//! cleaner's checkpoint and passes, the dirty ratio against `min.cleanable.dirty.ratio`),
//! the latest-value-per-key table beside the raw log, tombstones and the gaps the cleaner
//! leaves drawn as what they are. The topic panel and the `__consumer_offsets` view use them.

use crate::compaction::{Gap, LogCompaction, SegState};
use crate::i18n::Lang;
use crate::i18n_compaction as w;
use kafka_sandbox_core::snapshot::RecordView;
use yew::prelude::*;

/// The head line and the strip of segments of one compacted log.
pub fn segment_strip(lang: Lang, c: &LogCompaction) -> Html {
    let checkpoint = match c.checkpoint {
        Some(o) => o.to_string(),
        None => w::NOT_CLEANED_YET.get(lang).to_string(),
    };
    // Where the checkpoint falls in the strip: before the first segment drawn that is not
    // clean, once a pass ran.
    let cut = c.checkpoint.and_then(|_| c.segments.iter().position(|s| s.state != SegState::Clean));
    let mut cells: Vec<Html> = Vec::with_capacity(c.segments.len() + 2);
    if c.segments_hidden > 0 {
        cells.push(
            html! { <li key="hidden" class="seg-hidden muted small">{ w::segments_hidden(lang, c.segments_hidden, c.hidden_clean) }</li> },
        );
    }
    for (i, s) in c.segments.iter().enumerate() {
        if cut == Some(i) {
            cells.push(html! {
                <li key="checkpoint" class="seg-checkpoint" title={w::CHECKPOINT_HINT.get(lang)}>
                    <span class="off">{ c.checkpoint.unwrap_or_default() }</span>
                    <span class="cp-label">{ "✂" }</span>
                </li>
            });
        }
        let (label, hint) = match s.state {
            SegState::Clean => (w::SEG_CLEAN, w::SEG_CLEAN_HINT),
            SegState::Dirty if s.cleanable => (w::SEG_DIRTY, w::SEG_DIRTY_HINT),
            SegState::Dirty => (w::SEG_DIRTY, w::SEG_DIRTY_WAITS_HINT),
            SegState::Active => (w::SEG_ACTIVE, w::SEG_ACTIVE_HINT),
        };
        // Wider with more bytes, within bounds a phone can hold.
        let grow = (s.bytes / 64).clamp(1, 8);
        cells.push(html! {
            <li key={s.base_offset} class={classes!("seg", s.state.key(), (s.state == SegState::Dirty && !s.cleanable).then_some("waits"))}
                data-state={s.state.key()} data-base={s.base_offset.to_string()} data-records={s.records.to_string()}
                style={format!("flex-grow: {grow}")}
                title={w::segment_title(lang, s.base_offset, s.next_offset, s.records, s.bytes, hint.get(lang))}>
                <span class="seg-base">{ format!("@{}", s.base_offset) }</span>
                <span class="seg-state">{ label.get(lang) }</span>
                <span class="seg-n">{ w::segment_numbers(lang, s.records, s.bytes) }</span>
            </li>
        });
    }
    html! {
        <div class="compaction" data-policy={c.policy.name()}>
            <div class="compaction-head">
                <span class="policy"><code>{ format!("cleanup.policy={}", c.policy.name()) }</code></span>
                <span class="passes" title={w::CLEANER_PASSES.get(lang)}>{ format!("{} {}", w::CLEANER_PASSES.get(lang), c.passes) }</span>
                <span class="checkpoint" title={w::CHECKPOINT_HINT.get(lang)} data-checkpoint={c.checkpoint.map(|o| o.to_string()).unwrap_or_default()}>
                    { format!("{} {checkpoint}", w::CHECKPOINT.get(lang)) }
                </span>
                <span class={classes!("dirty-ratio", c.eligible.then_some("eligible"))} title={w::DIRTY_RATIO_HINT.get(lang)}
                    data-permille={c.dirty_permille.to_string()}>
                    { format!("{} {} · {}", w::DIRTY_RATIO.get(lang), w::ratio_against(lang, c.dirty_permille, c.min_dirty_permille),
                        if c.eligible { w::CLEANS_NEXT.get(lang) } else { w::WAITS.get(lang) }) }
                </span>
                if let Some(b) = c.broker {
                    <span class="muted small copy-of">{ w::copy_of(lang, b) }</span>
                }
            </div>
            <ol class="segstrip" aria-label={w::SEGMENTS.get(lang)}>
                { for cells }
            </ol>
        </div>
    }
}

/// The table a consumer reading the whole log ends up with, and what it does not show.
pub fn latest_table(lang: Lang, c: &LogCompaction) -> Html {
    html! {
        <div class="latest-per-key">
            <h4>{ w::LATEST_TITLE.get(lang) }</h4>
            <table class="latest">
                <thead><tr>
                    <th>{ w::KEY_COL.get(lang) }</th><th>{ w::VALUE_COL.get(lang) }</th><th>{ w::OFFSET_COL.get(lang) }</th>
                </tr></thead>
                <tbody>
                    if c.latest.is_empty() {
                        <tr><td colspan="3" class="muted">{ w::NO_KEYS.get(lang) }</td></tr>
                    }
                    { for c.latest.iter().map(|r| html! {
                        <tr key={r.record.0} data-key={r.key.clone()} data-value={r.value.clone()} data-offset={r.offset.to_string()}>
                            <td><code>{ &r.key }</code></td>
                            <td class="v">{ &r.value }</td>
                            <td class="o">{ r.offset }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
            if c.latest_total > c.latest.len() {
                <p class="muted small">{ w::keys_hidden(lang, c.latest_total - c.latest.len()) }</p>
            }
            if c.deleted_total > 0 {
                <p class="deleted-keys small">{ w::deleted_keys(lang, &c.deleted, c.deleted_total) }</p>
            }
            <p class="dirty-note small">{ w::dirty_note(lang, c.first_dirty) }</p>
        </div>
    }
}

/// A tombstone cell's value, struck by its class (`None` for any other record).
pub fn tombstone_value(r: &RecordView) -> Option<String> {
    r.tombstone.then(|| "null".to_string())
}

/// The word under a tombstone's struck value.
pub fn tombstone_word(lang: Lang, r: &RecordView) -> Html {
    if r.tombstone {
        html! { <span class="tomb-word">{ w::tombstone_word(lang) }</span> }
    } else {
        html! {}
    }
}

/// What a tombstone cell's title adds: what it is, and its delete horizon once stamped.
pub fn tombstone_hint(lang: Lang, r: &RecordView) -> Option<String> {
    if !r.tombstone {
        return None;
    }
    Some(match r.delete_horizon {
        Some(h) => format!("{} · {}", w::TOMBSTONE_HINT.get(lang), w::delete_horizon(lang, h.ms())),
        None => w::TOMBSTONE_HINT.get(lang).to_string(),
    })
}

/// The horizon tag under a stamped tombstone.
pub fn horizon_tag(lang: Lang, r: &RecordView) -> Html {
    match (r.tombstone, r.delete_horizon) {
        (true, Some(h)) => html! {
            <span class="horizon" title={w::delete_horizon(lang, h.ms())}>{ w::horizon_short(lang, h.ms()) }</span>
        },
        _ => html! {},
    }
}

/// A run of offsets the cleaner removed, in the log between the records around it, with
/// the markers that point into it (a committed offset or a position there reads the next
/// record).
pub fn gap_cell(lang: Lang, gap: Gap, flags: Html) -> Html {
    html! {
        <li key={format!("gap-{}", gap.from)} class="gap" data-from={gap.from.to_string()} data-to={gap.to.to_string()} title={w::GAP_HINT.get(lang)}>
            <span class="gap-label">{ w::gap_label(lang, gap.from, gap.to) }</span>
            { flags }
        </li>
    }
}

/// The legend's items for a compacted topic.
pub fn legend(lang: Lang) -> Html {
    html! {
        <>
            <span class="item"><span class="swatch tombstone" />{ w::LEGEND_TOMBSTONE.get(lang) }</span>
            <span class="item"><span class="swatch gap" />{ w::LEGEND_GAP.get(lang) }</span>
            <span class="item"><span class="swatch seg clean" />{ w::SEG_CLEAN.get(lang) }</span>
            <span class="item"><span class="swatch seg dirty" />{ w::SEG_DIRTY.get(lang) }</span>
            <span class="item"><span class="swatch seg active" />{ w::SEG_ACTIVE.get(lang) }</span>
        </>
    }
}

#[derive(Properties, PartialEq)]
pub struct OffsetsPanelProps {
    pub lang: Lang,
    pub view: std::rc::Rc<crate::compaction::OffsetsPartition>,
    pub dispatch: Callback<crate::state::Action>,
}

/// One `__consumer_offsets` partition opened from a group's card (issue 19): its leader
/// (the coordinator of its groups), its segment strip, its raw log of commits, metadata and
/// tombstones, and the latest value per key — what a new coordinator loads.
#[component]
pub fn OffsetsPanel(p: &OffsetsPanelProps) -> Html {
    let lang = p.lang;
    let v = &*p.view;
    let show_latest = use_state(|| false);
    let root = use_node_ref();
    {
        // Opened (or moved to another partition): bring it into view.
        let root = root.clone();
        use_effect_with(v.partition, move |_| {
            if let Some(el) = root.cast::<web_sys::Element>() {
                el.scroll_into_view();
            }
        });
    }
    let toggle = {
        let show = show_latest.clone();
        Callback::from(move |_: MouseEvent| show.set(!*show))
    };
    let close = super::send(&p.dispatch, crate::state::Action::ShowOffsets(None));
    let isr = v.isr.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    let leader = match v.leader {
        Some(b) => format!("{} B{b}", crate::i18n::PARTITION_LEADER.get(lang)),
        None => crate::i18n::OFFLINE.get(lang).to_string(),
    };
    let mut cells: Vec<Html> = Vec::with_capacity(v.records.len() + 2);
    let mut prev: Option<u64> = (v.records_hidden == 0).then(|| v.log_start.checked_sub(1)).flatten();
    if v.records_hidden == 0 && v.log_start == 0 {
        if let Some(first) = v.records.first().filter(|r| r.offset > 0) {
            cells.push(gap_cell(lang, Gap { from: 0, to: first.offset - 1 }, html! {}));
        }
    }
    for r in &v.records {
        if let Some(gap) = prev.and_then(|p| crate::compaction::gap_between(p, r.offset)) {
            cells.push(gap_cell(lang, gap, html! {}));
        }
        prev = Some(r.offset);
        let mut title = format!(
            "{} {} · {} {} · {}",
            crate::i18n::OFFSET.get(lang),
            r.offset,
            crate::i18n::KEY_WORD.get(lang),
            r.key,
            if r.tombstone { "null" } else { &r.value }
        );
        if r.tombstone {
            title = format!("{title} · {}", w::TOMBSTONE_HINT.get(lang));
            if let Some(h) = r.delete_horizon {
                title = format!("{title} · {}", w::delete_horizon(lang, h.ms()));
            }
        }
        let committed = r.offset < v.high_watermark;
        cells.push(html! {
            <li key={r.id.0} class={classes!("cell", "ocell", committed.then_some("committed"), r.tombstone.then_some("tombstone"))}
                data-offset={r.offset.to_string()} data-key={r.key.clone()} data-value={r.value.clone()} {title}>
                <span class="off">{ r.offset }</span>
                <span class="okey">{ &r.key }</span>
                <span class="val">{ if r.tombstone { "null" } else { r.value.as_str() } }</span>
                if r.tombstone {
                    <span class="tomb-word">{ w::tombstone_word(lang) }</span>
                }
                if let (true, Some(h)) = (r.tombstone, r.delete_horizon) {
                    <span class="horizon" title={w::delete_horizon(lang, h.ms())}>{ w::horizon_short(lang, h.ms()) }</span>
                }
            </li>
        });
    }
    if let Some(gap) = prev.and_then(|p| crate::compaction::gap_between(p, v.log_end)) {
        cells.push(gap_cell(lang, gap, html! {}));
    }
    html! {
        <section id="offsets-view" class="panel offsets-view" data-partition={v.partition.to_string()} ref={root}>
            <div class="offsets-head">
                <h2><code>{ format!("__consumer_offsets-{}", v.partition) }</code></h2>
                <button class="close-offsets" title={w::CLOSE_HINT.get(lang)} onclick={close}>{ "✕" }</button>
            </div>
            <p class="psummary">
                <strong class="leader-id">{ leader }</strong>
                { format!(" · {} {} · ISR [{isr}] · {} {} · {} {}", crate::i18n::EPOCH.get(lang), v.leader_epoch,
                    crate::i18n::LEO.get(lang), v.log_end, crate::i18n::HW.get(lang), v.high_watermark) }
            </p>
            <p class="offsets-groups">{ w::coordinates(lang, &v.groups) }</p>
            <p class="muted small">{ w::OFFSETS_TOPIC_HINT.get(lang) }</p>
            if let Some(c) = &v.compaction {
                { segment_strip(lang, c) }
                <button class={classes!("latest-toggle", show_latest.then_some("on"))} aria-pressed={show_latest.to_string()}
                    title={w::LATEST_TOGGLE_HINT.get(lang)} onclick={toggle}>{ w::LATEST_TOGGLE.get(lang) }</button>
            }
            if v.records_hidden > 0 {
                <p class="muted small records-hidden">{ w::records_hidden(lang, v.records_hidden) }</p>
            }
            <div class={classes!("log-and-latest", show_latest.then_some("with-latest"))}>
                <ol class="log offsets-log">
                    if v.records.is_empty() {
                        <li key="empty" class="empty">{ crate::i18n::EMPTY_LOG.get(lang) }</li>
                    }
                    { for cells }
                </ol>
                if let (true, Some(c)) = (*show_latest, &v.compaction) {
                    { latest_table(lang, c) }
                }
            </div>
        </section>
    }
}
