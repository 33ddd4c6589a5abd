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

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Kafka's client-side assignors (range, roundrobin, sticky, cooperative-sticky) on
 * {@code kafka-sandbox assign} inputs, the way the group leader runs them.
 *
 * <p>Reads one case per line on standard input (a {@code kafka-sandbox assign} input, with
 * any other fields such as {@code label}; an {@code expect} already there is dropped) and
 * prints the same case with {@code expect} set to what Kafka's assignor returns, keys in the
 * order they came, {@code expect} last. A case on which Kafka throws is not printed; its line
 * number and the exception go to standard error.
 *
 * <p>What the leader gets, as {@code ConsumerCoordinator.onLeaderElected} builds it: the
 * members put into a {@code new HashMap<>()} in the order of {@code members} (the JoinGroup
 * response's order), each with the {@code Subscription} its consumer sent
 * ({@code ConsumerCoordinator.metadata}): its topics; the user data of its own assignor
 * instance after {@code onAssignment(owned, generation)} (for sticky, the owned partitions
 * and generation; for cooperative-sticky, the generation; a member with neither owned
 * partitions nor a generation never had an assignment, so its instance is fresh); the owned
 * partitions as {@code ownedPartitions} for cooperative-sticky (an eager member has revoked
 * everything before it joins, so it sends none); its generation ({@code null} or absent:
 * -1, none); and its {@code group.instance.id}. Then a fresh assignor's
 * {@code assign(Cluster, GroupSubscription)}: the cluster has every topic of
 * {@code topics} with its partition count (0: no partitions, as if deleted), one broker,
 * no racks.
 *
 * <p>A member with owned partitions but no generation sends sticky user data with generation
 * -1; {@code AbstractStickyAssignor} treats that exactly as user data without a generation
 * (the V0 schema of clients before 2.3): {@code memberData.generation.orElse(-1)} in
 * {@code allSubscriptionsEqual}, and -1 in {@code prepopulateCurrentAssignments} either way.
 */
public final class ClientAssignors {
    private ClientAssignors() {}

    static ConsumerPartitionAssignor assignor(String strategy) {
        switch (strategy) {
            case "range": return new RangeAssignor();
            case "roundrobin": return new RoundRobinAssignor();
            case "sticky": return new StickyAssignor();
            case "cooperative-sticky": return new CooperativeStickyAssignor();
            default: throw new IllegalArgumentException("unknown strategy " + strategy);
        }
    }

    /** Kafka's assignment for one case: member -> topic -> ascending partitions, in members' order. */
    static Map<String, Object> expect(Map<String, Object> c) {
        String strategy = Json.str(c.get("strategy"));
        Node node = new Node(0, "localhost", 9092);
        List<PartitionInfo> partitions = new ArrayList<>();
        for (Map.Entry<String, Object> t : Json.obj(c.get("topics")).entrySet()) {
            int count = Json.integer(t.getValue());
            for (int p = 0; p < count; p++) {
                partitions.add(new PartitionInfo(t.getKey(), p, node, new Node[] {node}, new Node[] {node}));
            }
        }
        Cluster cluster = new Cluster("vectors", Collections.singletonList(node), partitions,
            Collections.emptySet(), Collections.emptySet());

        List<String> memberIds = new ArrayList<>();
        Map<String, Subscription> subscriptions = new HashMap<>();
        for (Object o : Json.arr(c.get("members"))) {
            Map<String, Object> m = Json.obj(o);
            String memberId = Json.str(m.get("member_id"));
            memberIds.add(memberId);
            List<String> topics = Json.strings(m.get("subscription"));
            Optional<String> instanceId = Optional.ofNullable((String) m.get("group_instance_id"));
            List<TopicPartition> owned = new ArrayList<>();
            if (m.get("owned") != null) {
                for (Object tp : Json.arr(m.get("owned"))) {
                    List<Object> pair = Json.arr(tp);
                    owned.add(new TopicPartition(Json.str(pair.get(0)), Json.integer(pair.get(1))));
                }
            }
            boolean hasGeneration = m.get("generation") != null;
            int generation = hasGeneration ? Json.integer(m.get("generation")) : -1;

            // The member's own assignor instance, as its consumer holds it.
            ConsumerPartitionAssignor own = assignor(strategy);
            if (hasGeneration || !owned.isEmpty()) {
                own.onAssignment(new Assignment(owned), new ConsumerGroupMetadata("vectors", generation, memberId, instanceId));
            }
            ByteBuffer userData = own.subscriptionUserData(new HashSet<>(topics));
            List<TopicPartition> ownedPartitions = strategy.equals("cooperative-sticky") ? owned : Collections.emptyList();
            Subscription s = new Subscription(topics, userData, ownedPartitions, generation, Optional.empty());
            s.setGroupInstanceId(instanceId);
            subscriptions.put(memberId, s);
        }

        Map<String, Assignment> result = assignor(strategy).assign(cluster, new GroupSubscription(subscriptions)).groupAssignment();
        Map<String, Object> out = new LinkedHashMap<>();
        for (String memberId : memberIds) {
            out.put(memberId, byTopic(result.containsKey(memberId) ? result.get(memberId).partitions() : Collections.emptyList()));
        }
        return out;
    }

    /** topic -> ascending partitions, topics in Java String order. */
    static Map<String, Object> byTopic(Iterable<TopicPartition> partitions) {
        TreeMap<String, List<Long>> t = new TreeMap<>();
        for (TopicPartition tp : partitions) t.computeIfAbsent(tp.topic(), k -> new ArrayList<>()).add((long) tp.partition());
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, List<Long>> e : t.entrySet()) {
            Collections.sort(e.getValue());
            out.put(e.getKey(), e.getValue());
        }
        return out;
    }

    public static void main(String[] args) throws Exception {
        Cases.run(ClientAssignors::expect);
    }
}
