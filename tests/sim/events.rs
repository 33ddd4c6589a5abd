//! Events carry who they involve and what part of Kafka they belong to as data
//! (`EventKind::subjects`, `EventKind::category`): checked over every event of runs that
//! use every feature, against the run's own brokers, clients, topics and groups.

use kafka_sandbox_core::event::{Category, Subject};
use kafka_sandbox_core::{scenario, Sim, SimTime};
use std::collections::BTreeSet;

/// Every name the run's subjects may refer to.
struct Known {
    brokers: BTreeSet<u32>,
    producers: BTreeSet<String>,
    topics: BTreeSet<String>,
    groups: BTreeSet<String>,
    members: BTreeSet<(String, String)>,
    connectors: BTreeSet<String>,
    apps: BTreeSet<String>,
}

fn known(s: &scenario::Scenario, sim: &Sim) -> Known {
    let mut k = Known {
        brokers: sim.brokers().map(|b| b.id()).collect(),
        producers: sim.producers().map(|p| p.name().to_string()).collect(),
        topics: sim.topics().map(|t| t.name().to_string()).collect(),
        groups: sim.groups().map(|g| g.id().to_string()).collect(),
        members: sim.groups().flat_map(|g| g.members().map(move |m| (g.id().to_string(), m.client_id().to_string()))).collect(),
        connectors: s.connectors.iter().map(|c| c.name.clone()).collect(),
        apps: s.streams.iter().map(|a| a.application_id.clone()).collect(),
    };
    // Members added by the timeline are in the run too.
    k.members.extend(sim.groups().flat_map(|g| g.registered().map(move |c| (g.id().to_string(), c.to_string()))));
    // Share groups (KIP-932) are groups too.
    for g in sim.share_groups() {
        k.groups.insert(g.id().to_string());
        k.members.extend(g.members().map(|m| (g.id().to_string(), m.client_id().to_string())));
        k.members.extend(g.registered().map(|c| (g.id().to_string(), c.to_string())));
    }
    k
}

fn is_known(k: &Known, subject: &Subject<'_>) -> bool {
    match *subject {
        Subject::Broker(b) => k.brokers.contains(&b),
        Subject::Producer(p) => k.producers.contains(p),
        Subject::Topic(t) | Subject::Partition { topic: t, .. } => k.topics.contains(t),
        Subject::Record(_) => true,
        Subject::Group(g) => k.groups.contains(g),
        Subject::Member { group, client_id } => k.members.contains(&(group.to_string(), client_id.to_string())),
        Subject::Connector(c) => k.connectors.contains(c),
        Subject::StreamsApp(a) => k.apps.contains(a),
    }
}

/// Steps the run to `until_ms`, checking each new event's subjects against what the run
/// holds (read again only when a name is not known yet: members come and go).
fn check_run(name: &str, s: &scenario::Scenario, until_ms: u64) -> usize {
    let mut sim = s.build().unwrap();
    let mut k = known(s, &sim);
    let mut checked = 0;
    let mut categories = BTreeSet::new();
    while sim.now() < SimTime(until_ms) {
        let before = sim.trace().total();
        if sim.step().is_none() {
            break;
        }
        for e in sim.events_since(before) {
            categories.insert(e.kind.category());
            for subject in e.kind.subjects() {
                if !is_known(&k, &subject) {
                    k = known(s, &sim);
                }
                assert!(is_known(&k, &subject), "{name}: event {} ({}) names {subject:?}, which is not in the run", e.seq, e.kind.name());
                checked += 1;
            }
        }
    }
    assert!(categories.len() >= 4, "{name}: {categories:?}");
    checked
}

#[test]
fn every_subject_an_event_names_is_in_the_run() {
    let every = scenario::Scenario::from_json(include_str!("../golden/every-feature.json")).unwrap();
    let n = check_run("every-feature", &every, every.end_ms());
    assert!(n > 1000, "{n} subjects checked");
    for (name, _) in scenario::BUILT_IN {
        let s = scenario::built_in(name).unwrap().unwrap();
        check_run(name, &s, 30_000);
    }
}

#[test]
fn a_group_event_involves_its_group_and_member_and_a_fault_is_a_fault() {
    let mut sim = scenario::default_scenario().build().unwrap();
    sim.run_to(SimTime(20_000));
    let joined = sim.trace().events().find(|e| e.kind.name() == "MemberJoined").expect("members joined");
    let subjects = joined.kind.subjects();
    assert!(subjects.iter().any(|s| matches!(s, Subject::Group(_))), "{subjects:?}");
    assert!(subjects.iter().any(|s| matches!(s, Subject::Member { .. })), "{subjects:?}");
    assert_eq!(joined.kind.category(), Category::Group);
    sim.apply(kafka_sandbox_core::BrokerCommand::CrashBroker { broker: 1 }).unwrap();
    let crashed = sim.trace().events().last().unwrap();
    assert_eq!((crashed.kind.category(), crashed.kind.subjects()), (Category::Fault, vec![Subject::Broker(1)]));
    sim.apply(kafka_sandbox_core::ProduceCommand::SetAcks { producer: "Producer1".into(), acks: kafka_sandbox_core::config::Acks::Leader })
        .unwrap();
    let changed = sim.trace().events().last().unwrap();
    assert_eq!((changed.kind.category(), changed.kind.subjects()), (Category::Settings, vec![Subject::Producer("Producer1")]));
}
