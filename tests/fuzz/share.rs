//! The share-link decoder (`share::decode`, `share::open_any`): what a pasted URL
//! fragment, a saved file or autosave hands the page. Arbitrary text, `ks1.` with random
//! base64, and real links (encoded from mutated seed scenarios) with their text damaged.
//!
//! Checked: no panic and a bounded amount of memory (the decompressor's output is
//! capped); a refusal says what is wrong; a link that decodes holds a scenario that
//! loads, and encoding it again gives a link that decodes to the same run.

use super::support::{apply_text_edits, bounded, fuzz, mutant, seed_values, text_edit};
use kafka_sandbox_core::scenario::Scenario;
use kafka_sandbox_core::share::{self, SharedRun};
use proptest::prelude::*;
use proptest::test_runner::TestCaseResult;

fn check_decoded(result: Result<SharedRun, share::ShareError>) -> TestCaseResult {
    match result {
        Err(e) => prop_assert!(e.to_string().len() > 10, "unclear: {e:?}"),
        Ok(run) => {
            prop_assert!(run.scenario.check().is_ok(), "a decoded run whose scenario does not load");
            let again = share::decode(&share::encode(&run));
            prop_assert!(again.as_ref() == Ok(&run), "a decoded run does not survive encoding again: {:?}", again.err());
        }
    }
    Ok(())
}

#[test]
fn share_links_from_arbitrary_text() {
    let text = prop_oneof![
        1 => any::<String>(),
        2 => "[A-Za-z0-9_-]{0,200}".prop_map(|b| format!("ks1.{b}")),
        1 => "#?ks1\\.[A-Za-z0-9_\\-+/=. ]{0,40}",
    ];
    fuzz("share_links_from_arbitrary_text", 2_000, text, |text| {
        bounded(|| check_decoded(share::decode(&text)))??;
        bounded(|| check_decoded(share::open_any(&text)))?
    });
}

/// Real links: a mutated seed scenario that loads, encoded, then the link text damaged.
#[test]
fn share_links_damaged() {
    let seeds = seed_values();
    let strategy = (mutant(), proptest::collection::vec(text_edit(), 0..3));
    fuzz("share_links_damaged", 300, strategy, |(m, edits)| {
        let Ok(scenario) = Scenario::from_json(&m.render(&seeds)) else { return Ok(()) };
        let run = SharedRun { scenario, ..SharedRun::default() };
        let mut link = share::encode(&run);
        if edits.is_empty() {
            let back = share::decode(&link);
            prop_assert!(back.as_ref() == Ok(&run), "a link does not decode to its run: {:?}", back.err());
        }
        apply_text_edits(&mut link, &edits);
        bounded(|| check_decoded(share::decode(&link)))?
    });
}
