import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.consumer.RoundRobinAssignor;
import org.apache.kafka.clients.consumer.StickyAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor;
import org.apache.kafka.coordinator.group.api.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.assignor.SubscriptionType;
import org.apache.kafka.coordinator.group.assignor.UniformAssignor;
import org.apache.kafka.coordinator.group.modern.GroupSpecImpl;
import org.apache.kafka.coordinator.group.modern.MemberSubscriptionAndAssignmentImpl;
import org.apache.kafka.coordinator.group.modern.SubscribedTopicDescriberImpl;
import org.apache.kafka.coordinator.group.modern.TopicMetadata;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Times Kafka's own assignors on the inputs benches/assignors.rs builds (the sandbox's
 * benchmark; this harness is the sandbox's code, Kafka's classes are compiled from Kafka's
 * source by benches/java/run.sh): one topic "events", members consumer-0000... all
 * subscribed, put into a HashMap in id order.
 *
 * <ul>
 *   <li>fresh: no member owns anything;</li>
 *   <li>leave: the middle member (consumer-N/2) leaves; the others own what the fresh run gave
 *     them, from generation 1 ({@code ownedPartitions} + {@code generationId} for every
 *     client assignor, and for {@code sticky} the user data {@code StickyAssignor} itself
 *     writes after {@code onAssignment}). For the group coordinator's assignors the
 *     members' current target assignments are the fresh result, as
 *     {@code Assignment.fromRecord} reads back the record written from it (a
 *     {@code HashMap}, each topic's partitions a {@code new HashSet<>(list)} in the record's
 *     order), with the inverted assignment {@code ModernGroup} keeps.</li>
 * </ul>
 *
 * <p>Each case runs untimed until the JIT has settled (at least WARMUP runs and a second),
 * then timed for BUDGET milliseconds (at least 5 runs, at most 200); only the assignor's
 * {@code assign} call is timed (the inputs are rebuilt before each run: {@code StickyAssignor}
 * consumes its user data buffers). Prints one line per case:
 * {@code java ASSIGNOR PxN CASE BEST_MS MEDIAN_MS RUNS MOVED DIGEST}, where DIGEST is the
 * FNV-1a 64 of the assignment written as {@code member:topic=p,p,...;\n} lines (members,
 * topics and partitions ascending), which benches/assignors.rs computes the same way for
 * its own result, and MOVED the partitions whose owner differs from the fresh result's.
 *
 * <p>Usage: {@code AssignorBench BUDGET_MS WARMUP TOPIC_ID PxN...}.
 */
public final class AssignorBench {
    private AssignorBench() {}

    static final String TOPIC = "events";
    /** The topic's id: the one benches/assignors.rs gives it (an argument). */
    static Uuid TOPIC_ID;
    static final String[] CLIENT = {"range", "roundrobin", "sticky", "cooperative-sticky"};
    static final String[] SERVER = {"uniform", "server-range"};

    static long budgetMs;
    static int warmup;

    public static void main(String[] args) {
        budgetMs = Long.parseLong(args[0]);
        warmup = Integer.parseInt(args[1]);
        TOPIC_ID = Uuid.fromString(args[2]);
        for (String size : Arrays.copyOfRange(args, 3, args.length)) {
            String[] pn = size.split("x");
            int partitions = Integer.parseInt(pn[0]);
            int members = Integer.parseInt(pn[1]);
            for (String name : CLIENT) client(name, partitions, members);
            for (String name : SERVER) server(name, partitions, members);
        }
    }

    static String memberId(int i) {
        return String.format("consumer-%04d", i);
    }

    /** Result of one timed case. */
    static final class Timing {
        double bestMs;
        double medianMs;
        int runs;
    }

    /** Warms up, then times {@code run} (after {@code prepare}, untimed) and returns the last result. */
    static <I, T> T time(Supplier<I> prepare, java.util.function.Function<I, T> run, Timing timing) {
        long warmStart = System.nanoTime();
        T last = null;
        for (int i = 0; i < warmup || System.nanoTime() - warmStart < 1_000_000_000L; i++) {
            last = run.apply(prepare.get());
        }
        List<Long> times = new ArrayList<>();
        long start = System.nanoTime();
        while (times.size() < 200 && (times.size() < 5 || System.nanoTime() - start < budgetMs * 1_000_000L)) {
            I input = prepare.get();
            long t = System.nanoTime();
            last = run.apply(input);
            times.add(System.nanoTime() - t);
        }
        Collections.sort(times);
        timing.bestMs = times.get(0) / 1e6;
        timing.medianMs = times.get(times.size() / 2) / 1e6;
        timing.runs = times.size();
        return last;
    }

    // ---- client assignors (ConsumerPartitionAssignor.assign(Cluster, GroupSubscription)) ----

    static ConsumerPartitionAssignor clientAssignor(String name) {
        switch (name) {
            case "range": return new RangeAssignor();
            case "roundrobin": return new RoundRobinAssignor();
            case "sticky": return new StickyAssignor();
            default: return new CooperativeStickyAssignor();
        }
    }

    static Cluster cluster(int partitions) {
        Node node = new Node(0, "broker-0", 9092);
        List<PartitionInfo> infos = new ArrayList<>();
        for (int p = 0; p < partitions; p++) infos.add(new PartitionInfo(TOPIC, p, node, new Node[] {node}, new Node[] {node}));
        return new Cluster("bench", List.of(node), infos, Collections.emptySet(), Collections.emptySet());
    }

    /** One member's subscription, as its consumer would send it (user data rebuilt per run). */
    static final class Member {
        final String id;
        final List<TopicPartition> owned;
        final ByteBuffer userData;

        Member(String id, List<TopicPartition> owned, ByteBuffer userData) {
            this.id = id;
            this.owned = owned;
            this.userData = userData;
        }

        Subscription subscription(boolean fresh) {
            List<String> topics = Collections.singletonList(TOPIC);
            if (fresh) return new Subscription(topics);
            return new Subscription(topics, userData == null ? null : userData.duplicate(), owned, 1, Optional.empty());
        }
    }

    static Map<String, Assignment> runClient(String name, Cluster cluster, List<Member> members, boolean fresh, Timing timing) {
        return time(() -> {
            Map<String, Subscription> subs = new HashMap<>();
            for (Member m : members) subs.put(m.id, m.subscription(fresh));
            return new GroupSubscription(subs);
        }, subs -> clientAssignor(name).assign(cluster, subs).groupAssignment(), timing);
    }

    static void client(String name, int partitions, int n) {
        Cluster cluster = cluster(partitions);
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < n; i++) members.add(new Member(memberId(i), Collections.emptyList(), null));
        Timing timing = new Timing();
        Map<String, Assignment> fresh = runClient(name, cluster, members, true, timing);
        Map<String, Map<String, List<Integer>>> freshMap = clientMap(fresh);
        print(name, partitions, n, "fresh", timing, -1, freshMap);

        String leaver = memberId(n / 2);
        List<Member> rest = new ArrayList<>();
        for (Member m : members) {
            if (m.id.equals(leaver)) continue;
            List<TopicPartition> owned = new ArrayList<>();
            for (Map.Entry<String, List<Integer>> e : freshMap.get(m.id).entrySet()) {
                for (int p : e.getValue()) owned.add(new TopicPartition(e.getKey(), p));
            }
            ByteBuffer userData = null;
            if (name.equals("sticky")) {
                StickyAssignor own = new StickyAssignor();
                own.onAssignment(new Assignment(owned), new ConsumerGroupMetadata("bench", 1, m.id, Optional.empty()));
                userData = own.subscriptionUserData(Collections.singleton(TOPIC));
            }
            rest.add(new Member(m.id, owned, userData));
        }
        Map<String, Assignment> after = runClient(name, cluster, rest, false, timing);
        Map<String, Map<String, List<Integer>>> afterMap = clientMap(after);
        print(name, partitions, n - 1, "leave", timing, moved(freshMap, afterMap), afterMap);
    }

    static Map<String, Map<String, List<Integer>>> clientMap(Map<String, Assignment> result) {
        Map<String, Map<String, List<Integer>>> out = new TreeMap<>();
        for (Map.Entry<String, Assignment> e : result.entrySet()) {
            Map<String, List<Integer>> mine = new TreeMap<>();
            for (TopicPartition tp : e.getValue().partitions()) mine.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(tp.partition());
            mine.values().forEach(Collections::sort);
            out.put(e.getKey(), mine);
        }
        return out;
    }

    // ---- the group coordinator's assignors (ConsumerGroupPartitionAssignor.assign(GroupSpec, SubscribedTopicDescriber)) ----

    static ConsumerGroupPartitionAssignor serverAssignor(String name) {
        return name.equals("uniform") ? new UniformAssignor() : new org.apache.kafka.coordinator.group.assignor.RangeAssignor();
    }

    static void server(String name, int partitions, int n) {
        SubscribedTopicDescriberImpl describer = new SubscribedTopicDescriberImpl(
            Collections.singletonMap(TOPIC_ID, new TopicMetadata(TOPIC_ID, TOPIC, partitions)));
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) ids.add(memberId(i));
        Timing timing = new Timing();
        GroupSpecImpl freshSpec = spec(ids, Collections.emptyMap());
        GroupAssignment fresh = time(() -> freshSpec, spec -> serverAssignor(name).assign(spec, describer), timing);
        Map<String, Map<String, List<Integer>>> freshMap = serverMap(fresh);
        print(name, partitions, n, "fresh", timing, -1, freshMap);

        // The records the coordinator writes from the result, read back (Assignment.fromRecord).
        Map<String, Map<Uuid, Set<Integer>>> current = new HashMap<>();
        for (Map.Entry<String, MemberAssignment> e : fresh.members().entrySet()) {
            Map<Uuid, Set<Integer>> record = new HashMap<>();
            for (Map.Entry<Uuid, Set<Integer>> t : e.getValue().partitions().entrySet()) {
                record.put(t.getKey(), new HashSet<>(new ArrayList<>(t.getValue())));
            }
            current.put(e.getKey(), record);
        }
        ids.remove(memberId(n / 2));
        GroupSpecImpl leaveSpec = spec(ids, current);
        GroupAssignment after = time(() -> leaveSpec, spec -> serverAssignor(name).assign(spec, describer), timing);
        Map<String, Map<String, List<Integer>>> afterMap = serverMap(after);
        print(name, partitions, n - 1, "leave", timing, moved(freshMap, afterMap), afterMap);
    }

    /** TargetAssignmentBuilder.build's GroupSpecImpl: memberSpecs filled in member order. */
    static GroupSpecImpl spec(List<String> ids, Map<String, Map<Uuid, Set<Integer>>> current) {
        Map<String, MemberSubscriptionAndAssignmentImpl> memberSpecs = new HashMap<>();
        Map<Uuid, Map<Integer, String>> inverted = new HashMap<>();
        for (String id : ids) {
            Map<Uuid, Set<Integer>> partitions = current.getOrDefault(id, Collections.emptyMap());
            memberSpecs.put(id, new MemberSubscriptionAndAssignmentImpl(Optional.empty(), Optional.empty(),
                Collections.singleton(TOPIC_ID), new org.apache.kafka.coordinator.group.modern.Assignment(partitions)));
            for (Map.Entry<Uuid, Set<Integer>> e : partitions.entrySet()) {
                Map<Integer, String> owners = inverted.computeIfAbsent(e.getKey(), k -> new HashMap<>());
                for (Integer p : e.getValue()) owners.put(p, id);
            }
        }
        return new GroupSpecImpl(Collections.unmodifiableMap(memberSpecs), SubscriptionType.HOMOGENEOUS, inverted);
    }

    static Map<String, Map<String, List<Integer>>> serverMap(GroupAssignment result) {
        Map<String, Map<String, List<Integer>>> out = new TreeMap<>();
        for (Map.Entry<String, MemberAssignment> e : result.members().entrySet()) {
            Map<String, List<Integer>> mine = new TreeMap<>();
            for (Map.Entry<Uuid, Set<Integer>> t : e.getValue().partitions().entrySet()) {
                if (t.getValue().isEmpty()) continue;
                List<Integer> ps = new ArrayList<>(t.getValue());
                Collections.sort(ps);
                mine.put(t.getKey().equals(TOPIC_ID) ? TOPIC : t.getKey().toString(), ps);
            }
            out.put(e.getKey(), mine);
        }
        return out;
    }

    // ---- output ----

    static int moved(Map<String, Map<String, List<Integer>>> before, Map<String, Map<String, List<Integer>>> after) {
        Map<String, String> owner = new HashMap<>();
        after.forEach((m, topics) -> topics.forEach((t, ps) -> ps.forEach(p -> owner.put(t + "-" + p, m))));
        int moved = 0;
        for (Map.Entry<String, Map<String, List<Integer>>> e : before.entrySet()) {
            for (Map.Entry<String, List<Integer>> t : e.getValue().entrySet()) {
                for (int p : t.getValue()) if (!e.getKey().equals(owner.get(t.getKey() + "-" + p))) moved++;
            }
        }
        return moved;
    }

    static String digest(Map<String, Map<String, List<Integer>>> assignment) {
        StringBuilder text = new StringBuilder();
        assignment.forEach((m, topics) -> {
            text.append(m).append(':');
            topics.forEach((t, ps) -> {
                text.append(t).append('=');
                for (int i = 0; i < ps.size(); i++) text.append(i == 0 ? "" : ",").append(ps.get(i));
                text.append(';');
            });
            text.append('\n');
        });
        long hash = 0xcbf29ce484222325L;
        for (byte b : text.toString().getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x100000001b3L;
        }
        return String.format("%016x", hash);
    }

    static void print(String name, int partitions, int members, String kase, Timing t, int moved, Map<String, Map<String, List<Integer>>> result) {
        System.out.printf("java %s %dx%d %s %.4f %.4f %d %s %s%n", name, partitions, members, kase, t.bestMs, t.medianMs, t.runs,
            moved < 0 ? "-" : Integer.toString(moved), digest(result));
        System.out.flush();
    }
}
