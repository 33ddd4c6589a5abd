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
        cells.push(html! { <li key="hidden" class="seg-hidden muted small">{ w::segments_hidden(lang, c.segments_hidden, c.hidden_clean) }</li> });
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
            <span class="horizon" title={w::delete_horizon(lang, h.ms())}>{ format!("⌛{} ms", h.ms()) }</span>
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
