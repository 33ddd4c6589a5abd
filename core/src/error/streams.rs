//! The refusals of a scenario's Kafka Streams applications (`streams[]`, checked by
//! `sim/streams.rs`): typed values with their parameters. `Display` is the English; the
//! page renders each in Chinese (`web/src/messages.rs`). A number outside its row of the
//! limits table (instances, the commit interval, the time per record) is
//! `Problem::OutOfRange`, a bad `application.id` or store name the `CommandError` a
//! command would get (`Problem::Command`).

use crate::limits::{MAX_STREAMS, MAX_TOPICS, MAX_VALUE_CHARS};
use std::fmt;

/// What is wrong with a scenario's Streams applications.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StreamsProblem {
    /// More than [`MAX_STREAMS`] applications.
    TooManyApps {
        /// How many applications the scenario defines.
        count: usize,
    },
    /// Two applications with one `application.id`.
    Duplicate {
        /// The `application.id` defined twice.
        application_id: String,
    },
    /// The `application.id` is a consumer group's id (it is the application's group id).
    IsAGroup {
        /// The `application.id`, which a group in `groups[]` already has.
        application_id: String,
    },
    /// The application's producer, `<application.id>-producer`, would have a producer's name.
    ProducerNameTaken {
        /// The application producer's name, which a scenario producer already has.
        producer: String,
    },
    /// The source or sink topic does not exist (Streams does not create them).
    UnknownTopic {
        /// The topic named, which `topics[]` does not define.
        topic: String,
    },
    /// The sink is the source.
    SinkIsSource,
    /// `filter`'s `value_contains` longer than [`MAX_VALUE_CHARS`].
    FilterTooLong,
    /// The store's changelog topic, `<application.id>-<store>-changelog`, is a topic already.
    ChangelogIsATopic {
        /// The changelog topic's name.
        changelog: String,
    },
    /// The topics and the changelog topics together are more than [`MAX_TOPICS`].
    TooManyTopics {
        /// How many topics the scenario defines.
        topics: usize,
        /// How many changelog topics its applications add.
        changelogs: usize,
    },
}

impl fmt::Display for StreamsProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamsProblem::TooManyApps { count } => write!(f, "{count} applications; allowed: at most {MAX_STREAMS}"),
            StreamsProblem::Duplicate { application_id } => write!(f, "application \"{application_id}\" is defined twice"),
            StreamsProblem::IsAGroup { application_id } => {
                write!(f, "\"{application_id}\" is already a consumer group's id (the application's group id is its application.id)")
            }
            StreamsProblem::ProducerNameTaken { producer } => {
                write!(f, "its producer would be named \"{producer}\", which a producer already is")
            }
            StreamsProblem::UnknownTopic { topic } => write!(f, "there is no topic named \"{topic}\" (Streams needs its topics to exist)"),
            StreamsProblem::SinkIsSource => f.write_str("the sink must be another topic than the source"),
            StreamsProblem::FilterTooLong => write!(f, "at most {MAX_VALUE_CHARS} characters"),
            StreamsProblem::ChangelogIsATopic { changelog } => write!(f, "its changelog topic \"{changelog}\" is already a topic"),
            StreamsProblem::TooManyTopics { topics, changelogs } => {
                write!(f, "{topics} topics and {changelogs} changelog topic(s); allowed: at most {MAX_TOPICS} topics in all")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::{CommandError, NameOf, NameProblem};
    use crate::error::{Problem, ScenarioError};
    use crate::limits;
    use crate::scenario::Scenario;

    /// A valid scenario: topics "in" and "out", one application reading "in" with `op`.
    fn with(op: &str, rest: &str) -> String {
        format!(
            r#"{{"version": 1, "topics": [{{"name": "in", "partitions": 2}}, {{"name": "out", "partitions": 2}}]{rest},
            "streams": [{{"application_id": "app", "source": "in", "sink": "out", "op": {op}}}]}}"#
        )
    }

    const UPPER: &str = r#"{"map_upper": {}}"#;

    fn refused(text: &str) -> ScenarioError {
        Scenario::from_json(text).expect_err("refused")
    }

    #[test]
    fn the_samples_are_valid() {
        Scenario::from_json(&with(UPPER, "")).expect("valid");
        Scenario::from_json(&with(r#"{"count_by_key": {}}"#, "")).expect("valid");
    }

    /// Each mistake in a scenario's Streams applications gives its own typed value, at its
    /// place, with the English it always had.
    #[test]
    fn each_streams_mistake_is_its_own_typed_refusal() {
        let app = |id: &str| format!(r#"{{"application_id": "{id}", "source": "in", "sink": "out", "op": {UPPER}}}"#);
        let topics = r#"{"version": 1, "topics": [{"name": "in", "partitions": 2}, {"name": "out", "partitions": 2}], "streams": "#;
        let nine: Vec<String> = (0..9).map(|i| app(&format!("a{i}"))).collect();
        let e = refused(&format!("{topics}[{}]}}", nine.join(",")));
        assert_eq!((e.path.as_str(), &e.problem), ("streams", &Problem::Streams(StreamsProblem::TooManyApps { count: 9 })));
        assert_eq!(e.problem.to_string(), "9 applications; allowed: at most 8");

        let e = refused(&format!("{topics}[{}, {}]}}", app("a"), app("a")));
        let twice = StreamsProblem::Duplicate { application_id: "a".into() };
        assert_eq!((e.path.as_str(), &e.problem), ("streams[1].application_id", &twice.into()));
        assert_eq!(e.problem.to_string(), "application \"a\" is defined twice");

        let e = refused(&format!("{topics}[{}]}}", app("a\\u0007")));
        let bad = CommandError::BadName { what: NameOf::ApplicationId, name: "a\u{7}".into(), problem: NameProblem::ControlCharacter };
        assert_eq!((e.path.as_str(), &e.problem), ("streams[0].application_id", &bad.into()));

        let e = refused(&with(UPPER, r#", "groups": [{"id": "app", "topics": ["in"]}]"#));
        assert_eq!(
            (e.path.as_str(), &e.problem),
            ("streams[0].application_id", &StreamsProblem::IsAGroup { application_id: "app".into() }.into())
        );
        assert_eq!(e.problem.to_string(), "\"app\" is already a consumer group's id (the application's group id is its application.id)");

        let e = refused(&with(UPPER, r#", "producers": [{"name": "app-producer"}]"#));
        let taken = StreamsProblem::ProducerNameTaken { producer: "app-producer".into() };
        assert_eq!((e.path.as_str(), &e.problem), ("streams[0].application_id", &taken.into()));
        assert_eq!(e.problem.to_string(), "its producer would be named \"app-producer\", which a producer already is");

        let e = refused(&with(UPPER, "").replacen("\"source\": \"in\"", "\"source\": \"nope\"", 1));
        assert_eq!((e.path.as_str(), &e.problem), ("streams[0].source", &StreamsProblem::UnknownTopic { topic: "nope".into() }.into()));

        let e = refused(&with(UPPER, "").replacen("\"sink\": \"out\"", "\"sink\": \"in\"", 1));
        assert_eq!((e.path.as_str(), &e.problem), ("streams[0].sink", &StreamsProblem::SinkIsSource.into()));
        assert_eq!(e.problem.to_string(), "the sink must be another topic than the source");

        for (field, value, range) in [
            ("instances", 0, &limits::STREAMS_INSTANCES),
            ("instances", 9, &limits::STREAMS_INSTANCES),
            ("commit_interval_ms", 0, &limits::STREAMS_COMMIT_INTERVAL_MS),
            ("processing_ms", 3_600_001, &limits::STREAMS_PROCESSING_MS),
        ] {
            let e = refused(&with(UPPER, "").replacen("\"sink\": \"out\"", &format!("\"sink\": \"out\", \"{field}\": {value}"), 1));
            assert_eq!((e.path.as_str(), &e.problem), (format!("streams[0].{field}").as_str(), &Problem::OutOfRange { range, value }));
        }
        let e = refused(&with(UPPER, "").replacen("\"sink\": \"out\"", "\"sink\": \"out\", \"processing_ms\": 3600001", 1));
        assert_eq!(e.problem.to_string(), "is 3600001; allowed: 0 to 3600000");

        let long = "x".repeat(MAX_VALUE_CHARS + 1);
        let e = refused(&with(&format!(r#"{{"filter": {{"value_contains": "{long}"}}}}"#), ""));
        assert_eq!((e.path.as_str(), &e.problem), ("streams[0].op.filter.value_contains", &StreamsProblem::FilterTooLong.into()));
        assert_eq!(e.problem.to_string(), "at most 1024 characters");

        let e = refused(&with(r#"{"count_by_key": {"store": ""}}"#, ""));
        let empty = CommandError::BadName { what: NameOf::Store, name: String::new(), problem: NameProblem::Empty };
        assert_eq!((e.path.as_str(), &e.problem), ("streams[0].op.count_by_key.store", &empty.into()));

        let text = with(r#"{"count_by_key": {}}"#, "").replacen(
            "{\"name\": \"in\"",
            "{\"name\": \"app-counts-changelog\", \"partitions\": 1}, {\"name\": \"in\"",
            1,
        );
        let e = refused(&text);
        let taken = StreamsProblem::ChangelogIsATopic { changelog: "app-counts-changelog".into() };
        assert_eq!((e.path.as_str(), &e.problem), ("streams[0].op", &taken.into()));
        assert_eq!(e.problem.to_string(), "its changelog topic \"app-counts-changelog\" is already a topic");

        let fourteen: Vec<String> = (0..14).map(|i| format!(r#"{{"name": "t{i}", "partitions": 1}}"#)).collect();
        let e = refused(&with(r#"{"count_by_key": {}}"#, "").replacen(
            "{\"name\": \"in\"",
            &format!("{}, {{\"name\": \"in\"", fourteen.join(",")),
            1,
        ));
        assert_eq!((e.path.as_str(), &e.problem), ("streams", &StreamsProblem::TooManyTopics { topics: 16, changelogs: 1 }.into()));
        assert_eq!(e.problem.to_string(), "16 topics and 1 changelog topic(s); allowed: at most 16 topics in all");
    }
}
