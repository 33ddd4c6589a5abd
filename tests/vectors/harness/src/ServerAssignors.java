import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;
import org.apache.kafka.coordinator.group.GroupCoordinatorRecordHelpers;
import org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor;
import org.apache.kafka.coordinator.group.api.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.assignor.SubscriptionType;
import org.apache.kafka.coordinator.group.assignor.RangeAssignor;
import org.apache.kafka.coordinator.group.assignor.UniformAssignor;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMemberValue;
import org.apache.kafka.coordinator.group.modern.Assignment;
import org.apache.kafka.coordinator.group.modern.GroupSpecImpl;
import org.apache.kafka.coordinator.group.modern.MemberSubscriptionAndAssignmentImpl;
import org.apache.kafka.coordinator.group.modern.ModernGroup;
import org.apache.kafka.coordinator.group.modern.SubscribedTopicDescriberImpl;
import org.apache.kafka.coordinator.group.modern.TopicIds;
import org.apache.kafka.coordinator.group.modern.TopicMetadata;
import org.apache.kafka.coordinator.group.modern.consumer.ConsumerGroupMember;
import org.apache.kafka.image.TopicsImage;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Kafka's broker-side assignors of the consumer protocol (KIP-848: {@code uniform}, the
 * {@code UniformAssignor}, and {@code range}, the group coordinator's {@code RangeAssignor})
 * on {@code kafka-sandbox assign} inputs with {@code "protocol": "consumer"}, fed the way
 * {@code TargetAssignmentBuilder.build} feeds them.
 *
 * <p>Reads one case per line on standard input and prints it with {@code expect} set to
 * Kafka's target assignment (member -> topic -> ascending partitions; members and topics in
 * Java String order; a topic left with no partitions is not printed).
 *
 * <p>The assignor's input, piece by piece:
 * <ul>
 *   <li>each member a {@code ConsumerGroupMember} built with its member id,
 *     {@code group.instance.id} and {@code setSubscribedTopicNames(subscription)} (a
 *     {@code new HashSet<>(list)});</li>
 *   <li>its current target assignment {@code Assignment.fromRecord} of a
 *     {@code ConsumerGroupTargetAssignmentMemberValue} whose topics are those of
 *     {@code owned} in the order each first appears, each with its partitions in
 *     {@code owned}'s order (the record as the coordinator stored it). A topic of
 *     {@code owned} missing from {@code topics} was deleted: the record still names its
 *     id;</li>
 *   <li>{@code memberSpecs}, a {@code new HashMap<>()} filled in {@code members}' order with
 *     {@code new MemberSubscriptionAndAssignmentImpl(rack: none, instance id,
 *     new TopicIds(subscribedTopicNames, resolver), assignment)}, as {@code build} fills it
 *     from {@code withMembers} (in the coordinator, the group's {@code TimelineHashMap} of
 *     members, whose order decides only ties inside a hash bin: not reproduced);</li>
 *   <li>the subscription metadata: every subscribed name that is a topic of {@code topics}
 *     (with its id and partition count), into {@code topicMetadataMap}, a
 *     {@code HashMap<Uuid, TopicMetadata>}, for {@code SubscribedTopicDescriberImpl};</li>
 *   <li>the subscription type: {@code ModernGroup.subscriptionType} of the per-name
 *     subscriber counts;</li>
 *   <li>the inverted target assignment (partition -> member), as
 *     {@code ModernGroup.updateTargetAssignment} builds it, for {@code GroupSpecImpl}.</li>
 * </ul>
 * Topic ids: {@code topic_ids}, else the id {@code kafka-sandbox assign} derives from the
 * name and {@code seed} (see {@link #derivedId}). The topic resolver maps names and ids of
 * {@code topics} only, as a {@code TopicsImage} of them would (a deleted topic resolves to
 * nothing).
 *
 * <p>{@code TargetAssignmentBuilder} itself is not run: it starts from
 * {@code TopicsImage.EMPTY}, whose class cannot be initialised without pcollections (which
 * Debian does not package). {@link #compute} does what its {@code build()} does around the
 * assignor call, line for line, with Kafka's classes for every piece.
 */
public final class ServerAssignors {
    private ServerAssignors() {}

    static ConsumerGroupPartitionAssignor assignor(String strategy) {
        switch (strategy) {
            case "uniform": return new UniformAssignor();
            case "range": return new RangeAssignor();
            default: throw new IllegalArgumentException("unknown server-side strategy " + strategy);
        }
    }

    /** Names and ids of the topics that exist. */
    static final class Resolver implements TopicIds.TopicResolver {
        final Map<String, Uuid> ids = new HashMap<>();
        final Map<Uuid, String> names = new HashMap<>();

        @Override
        public TopicsImage image() {
            return null;
        }

        @Override
        public String name(Uuid id) {
            return names.get(id);
        }

        @Override
        public Uuid id(String name) {
            return ids.get(name);
        }

        @Override
        public void clear() {}
    }

    /** Kafka's answer to one case. */
    static final class Outcome {
        /** member -> topic -> ascending partitions, members and topics in Java String order. */
        final Map<String, Object> expect = new LinkedHashMap<>();
        /**
         * member -> its stored target assignment afterwards, as [topic, partition] pairs in
         * the record's order: the new record {@code TargetAssignmentBuilder.build} writes
         * ({@code GroupCoordinatorRecordHelpers.newConsumerGroupTargetAssignmentRecord}), or
         * the old one when the assignment did not change. Members in {@code members}' order.
         */
        final Map<String, List<Object>> records = new LinkedHashMap<>();
    }

    static Map<String, Object> expect(Map<String, Object> c) {
        return compute(c).expect;
    }

    static Outcome compute(Map<String, Object> c) {
        if (!"consumer".equals(c.get("protocol"))) throw new IllegalArgumentException("not a consumer-protocol case");
        long seed = c.get("seed") == null ? 0 : (Long) c.get("seed");
        Map<String, Object> topics = Json.obj(c.get("topics"));
        Map<String, Object> given = c.get("topic_ids") == null ? Collections.emptyMap() : Json.obj(c.get("topic_ids"));

        // Topic ids as kafka-sandbox assign gives them: topic_ids first, then the others
        // in name order, each drawn again while it collides.
        Map<String, Uuid> idOf = new HashMap<>();
        Set<Uuid> taken = new java.util.HashSet<>();
        for (Map.Entry<String, Object> e : given.entrySet()) {
            Uuid id = Uuid.fromString(Json.str(e.getValue()));
            idOf.put(e.getKey(), id);
            taken.add(id);
        }
        for (String name : new TreeMap<>(topics).keySet()) {
            if (!idOf.containsKey(name)) {
                Uuid id = derivedId(seed, name, taken);
                idOf.put(name, id);
                taken.add(id);
            }
        }
        Map<Uuid, String> nameOf = new HashMap<>();
        idOf.forEach((name, id) -> nameOf.put(id, name));
        Resolver resolver = new Resolver();
        Map<String, Integer> partitionCount = new HashMap<>();
        for (Map.Entry<String, Object> e : topics.entrySet()) {
            resolver.ids.put(e.getKey(), idOf.get(e.getKey()));
            resolver.names.put(idOf.get(e.getKey()), e.getKey());
            partitionCount.put(e.getKey(), Json.integer(e.getValue()));
        }

        List<ConsumerGroupMember> members = new ArrayList<>();
        Map<String, Assignment> targetAssignment = new HashMap<>();
        Map<String, ConsumerGroupTargetAssignmentMemberValue> storedRecords = new HashMap<>();
        Map<Uuid, Map<Integer, String>> inverted = new HashMap<>();
        for (Object o : Json.arr(c.get("members"))) {
            Map<String, Object> m = Json.obj(o);
            String memberId = Json.str(m.get("member_id"));
            ConsumerGroupMember member = new ConsumerGroupMember.Builder(memberId)
                .setInstanceId((String) m.get("group_instance_id"))
                .setSubscribedTopicNames(Json.strings(m.get("subscription")))
                .build();
            members.add(member);

            // The stored record: owned's topics in first-appearance order.
            Map<String, List<Integer>> byTopic = new LinkedHashMap<>();
            if (m.get("owned") != null) {
                for (Object tp : Json.arr(m.get("owned"))) {
                    List<Object> pair = Json.arr(tp);
                    byTopic.computeIfAbsent(Json.str(pair.get(0)), k -> new ArrayList<>()).add(Json.integer(pair.get(1)));
                }
            }
            if (!byTopic.isEmpty()) {
                List<ConsumerGroupTargetAssignmentMemberValue.TopicPartition> record = new ArrayList<>();
                for (Map.Entry<String, List<Integer>> e : byTopic.entrySet()) {
                    Uuid id = idOf.computeIfAbsent(e.getKey(), name -> derivedId(seed, name, taken));
                    taken.add(id);
                    nameOf.put(id, e.getKey());
                    record.add(new ConsumerGroupTargetAssignmentMemberValue.TopicPartition()
                        .setTopicId(id)
                        .setPartitions(e.getValue()));
                }
                ConsumerGroupTargetAssignmentMemberValue stored = new ConsumerGroupTargetAssignmentMemberValue().setTopicPartitions(record);
                storedRecords.put(memberId, stored);
                Assignment assignment = Assignment.fromRecord(stored);
                targetAssignment.put(memberId, assignment);
                // ModernGroup.updateInvertedTargetAssignment from an empty old assignment.
                for (Map.Entry<Uuid, Set<Integer>> e : assignment.partitions().entrySet()) {
                    Map<Integer, String> owners = inverted.computeIfAbsent(e.getKey(), k -> new HashMap<>());
                    for (Integer p : e.getValue()) owners.put(p, memberId);
                }
            }
        }

        // ModernGroup.maybeUpdateSubscribedTopicNames and subscriptionType.
        Map<String, Integer> subscribedTopicNames = new HashMap<>();
        for (ConsumerGroupMember member : members) {
            for (String name : member.subscribedTopicNames()) subscribedTopicNames.merge(name, 1, Integer::sum);
        }
        SubscriptionType subscriptionType = ModernGroup.subscriptionType(subscribedTopicNames, members.size());
        // ModernGroup.computeSubscriptionMetadata, then build()'s topicMetadataMap.
        Map<String, TopicMetadata> subscriptionMetadata = new HashMap<>(subscribedTopicNames.size());
        subscribedTopicNames.forEach((name, count) -> {
            if (partitionCount.containsKey(name)) {
                subscriptionMetadata.put(name, new TopicMetadata(idOf.get(name), name, partitionCount.get(name)));
            }
        });
        Map<Uuid, TopicMetadata> topicMetadataMap = new HashMap<>();
        subscriptionMetadata.forEach((name, metadata) -> topicMetadataMap.put(metadata.id(), metadata));

        // TargetAssignmentBuilder.build: memberSpecs in the members' order.
        Map<String, MemberSubscriptionAndAssignmentImpl> memberSpecs = new HashMap<>();
        for (ConsumerGroupMember member : members) {
            memberSpecs.put(member.memberId(), new MemberSubscriptionAndAssignmentImpl(
                Optional.ofNullable(member.rackId()),
                Optional.ofNullable(member.instanceId()),
                new TopicIds(member.subscribedTopicNames(), resolver),
                targetAssignment.getOrDefault(member.memberId(), Assignment.EMPTY)));
        }
        GroupAssignment result = assignor(Json.str(c.get("strategy"))).assign(
            new GroupSpecImpl(Collections.unmodifiableMap(memberSpecs), subscriptionType, inverted),
            new SubscribedTopicDescriberImpl(topicMetadataMap));

        Outcome out = new Outcome();
        for (String memberId : new TreeMap<>(memberSpecs).keySet()) {
            MemberAssignment assigned = result.members().get(memberId);
            TreeMap<String, List<Long>> mine = new TreeMap<>();
            if (assigned != null) {
                for (Map.Entry<Uuid, Set<Integer>> e : assigned.partitions().entrySet()) {
                    if (e.getValue().isEmpty()) continue;
                    List<Long> ps = new ArrayList<>();
                    for (Integer p : e.getValue()) ps.add((long) p);
                    Collections.sort(ps);
                    mine.put(resolver.name(e.getKey()), ps);
                }
            }
            out.expect.put(memberId, new LinkedHashMap<>(mine));
        }
        // TargetAssignmentBuilder.build's records: a new one where the assignment changed.
        for (ConsumerGroupMember member : members) {
            String memberId = member.memberId();
            Assignment old = targetAssignment.get(memberId);
            MemberAssignment assigned = result.members().get(memberId);
            Assignment now = assigned == null ? Assignment.EMPTY : new Assignment(assigned.partitions());
            List<Object> pairs = new ArrayList<>();
            ConsumerGroupTargetAssignmentMemberValue record;
            if (now.equals(old)) {
                record = storedRecords.get(memberId);
            } else {
                CoordinatorRecord written = GroupCoordinatorRecordHelpers.newConsumerGroupTargetAssignmentRecord(
                    "vectors", memberId, now.partitions());
                record = (ConsumerGroupTargetAssignmentMemberValue) written.value().message();
            }
            if (record != null) {
                for (ConsumerGroupTargetAssignmentMemberValue.TopicPartition tp : record.topicPartitions()) {
                    String name = nameOf.get(tp.topicId());
                    for (Integer p : tp.partitions()) pairs.add(List.of(name, (long) p));
                }
            }
            out.records.put(memberId, pairs);
        }
        return out;
    }

    /**
     * The topic id {@code kafka-sandbox assign} gives a topic without one in
     * {@code topic_ids} (the sandbox's {@code Uuid::derived}, not Kafka's: Kafka draws ids at
     * random): version-4 ids, as {@code Uuid.randomUuid} sets the bits, drawn from a
     * SplitMix64 seeded with {@code seed} XOR the 64-bit FNV-1a hash of the name's UTF-8
     * bytes, again while reserved, printed with a leading '-', or in {@code taken}.
     */
    static Uuid derivedId(long seed, String name, Set<Uuid> taken) {
        long hash = 0xcbf29ce484222325L;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x100000001b3L;
        }
        long[] state = {seed ^ hash};
        while (true) {
            long msb = (splitMix(state) & ~0xF000L) | 0x4000L;
            long lsb = (splitMix(state) & ~(0xC000L << 48)) | (0x8000L << 48);
            Uuid id = new Uuid(msb, lsb);
            if (!Uuid.RESERVED.contains(id) && !id.toString().startsWith("-") && !taken.contains(id)) return id;
        }
    }

    private static long splitMix(long[] state) {
        state[0] += 0x9E3779B97F4A7C15L;
        long z = state[0];
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    public static void main(String[] args) throws Exception {
        Cases.run(ServerAssignors::expect);
    }
}
