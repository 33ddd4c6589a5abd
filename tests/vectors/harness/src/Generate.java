import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Draws new cases from a seed, in the families tests/vectors/README.md describes, and prints
 * them with Kafka's answer (the same code as the harnesses), one per line. A case Kafka
 * throws on is left out (and named on standard error). The committed vector files are not
 * touched: write the output to a new file, then look at it and decide.
 *
 * <pre>
 * Generate client  SEED COUNT   COUNT cases per client assignor (range, roundrobin, sticky, cooperative-sticky)
 * Generate server  SEED CHAINS  CHAINS chains of 5 rounds per family (uniform/range x homogeneous/heterogeneous),
 *                               then CHAINS cases with shuffled stored records
 * Generate hashmap SEED COUNT   COUNT put/remove sequences on java.util.HashMap
 * </pre>
 *
 * Every case is one {@code kafka-sandbox assign} accepts: unique member ids and
 * {@code group.instance.id}s, owned partitions below their topic's partition count (counts
 * only grow), no partition owned twice on the server side.
 */
public final class Generate {
    private Generate() {}

    private static final PrintStream OUT = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    private static int leftOut = 0;

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: Generate client|server|hashmap SEED COUNT");
            System.exit(2);
        }
        Rng rng = new Rng(Long.parseLong(args[1]));
        int count = Integer.parseInt(args[2]);
        switch (args[0]) {
            case "client": client(rng, count); break;
            case "server": server(rng, count); break;
            case "hashmap": hashmap(rng, count); break;
            default: System.err.println("unknown kind " + args[0]); System.exit(2);
        }
        OUT.flush();
        if (leftOut > 0) System.err.println("left out (Kafka threw): " + leftOut);
    }

    // ---------------------------------------------------------------------------------
    // Client assignors.

    static final List<String> STRATEGIES = List.of("range", "roundrobin", "sticky", "cooperative-sticky");
    static final int[] EQUAL_HASH_COUNTS = {8, 9, 10, 11, 12, 13, 16, 20, 25, 33, 40, 49};

    /** A client-side member: what {@code kafka-sandbox assign} reads. */
    static final class Member {
        String id;
        String instance;
        List<String> topics = new ArrayList<>();
        List<List<Object>> owned;
        Integer generation;

        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("member_id", id);
            if (instance != null) m.put("group_instance_id", instance);
            m.put("subscription", new ArrayList<>(topics));
            if (owned != null) m.put("owned", owned);
            if (generation != null) m.put("generation", (long) generation);
            return m;
        }
    }

    static void client(Rng rng, int perStrategy) {
        for (String strategy : STRATEGIES) {
            int made = 0;
            while (made < perStrategy) {
                Map<String, Object> c = clientCase(rng, strategy);
                if (emit(c, ClientAssignors::expect)) made++;
            }
        }
    }

    static Map<String, Object> clientCase(Rng rng, String strategy) {
        boolean sticky = strategy.endsWith("sticky");
        int family = rng.below(100);
        if (sticky && family < 5) return generalPath(rng, strategy);
        if (family < 25) return treeBins(rng, strategy);
        boolean rebalance = family < 45;
        boolean randomOwned = !rebalance && family < 65;

        Map<String, Integer> topics = randomTopics(rng, 1, 4, 12);
        boolean equal = rng.chance(50);
        boolean statics = rng.chance(30);
        List<Member> members = new ArrayList<>();
        int n = rng.between(1, 20);
        Set<String> ids = new LinkedHashSet<>();
        for (int i = 0; i < n; i++) members.add(newMember(rng, ids, i, statics));
        subscribe(rng, members, topics, equal);
        String history = "";
        if (rebalance) {
            members = afterPreviousRound(rng, strategy, topics, members, statics, ids);
            history = ", rebalance after a previous round";
        } else if (randomOwned) {
            ownAtRandom(rng, topics, members);
            history = ", owned partitions and generations, some conflicting";
        }
        String label = (allEqual(members) ? "equal" : "unequal") + " subscriptions" + (statics ? ", static members" : "") + history;
        return clientJson(label, strategy, topics, members);
    }

    /** Topics {@code t1..}: between lo and hi of them, 1 to maxPartitions partitions each;
     * sometimes one with no partitions ({@code empty}, as if deleted). */
    static Map<String, Integer> randomTopics(Rng rng, int lo, int hi, int maxPartitions) {
        Map<String, Integer> topics = new LinkedHashMap<>();
        int count = rng.between(lo, hi);
        for (int i = 1; i <= count; i++) topics.put("t" + i, rng.between(1, maxPartitions));
        if (rng.chance(15)) topics.put("empty", 0);
        return topics;
    }

    /** A member id in one of the forms consumers have: {@code consumer-N-<uuid part>}, {@code consumer-N}, {@code cN}. */
    static Member newMember(Rng rng, Set<String> ids, int index, boolean statics) {
        Member m = new Member();
        do {
            switch (rng.below(3)) {
                case 0: m.id = "consumer-" + index + "-" + rng.hex(8) + "-" + rng.hex(4); break;
                case 1: m.id = "consumer-" + index; break;
                default: m.id = "c" + index;
            }
            index += 100;
        } while (!ids.add(m.id));
        // Instance ids share the set with member ids (which never start with "instance-").
        if (statics && rng.chance(70)) {
            do {
                m.instance = "instance-" + rng.hex(3);
            } while (!ids.add(m.instance));
        }
        return m;
    }

    /** Subscriptions: one shared list (in each member's own order), or each its own
     * (sometimes empty, sometimes naming a topic that does not exist). */
    static void subscribe(Rng rng, List<Member> members, Map<String, Integer> topics, boolean equal) {
        List<String> names = new ArrayList<>(topics.keySet());
        List<String> shared = randomSubset(rng, names, 1);
        if (rng.chance(10)) shared.add("gone");
        for (Member m : members) {
            if (equal) {
                m.topics = new ArrayList<>(shared);
                rng.shuffle(m.topics);
            } else {
                m.topics = rng.chance(5) ? new ArrayList<>() : randomSubset(rng, names, 1);
                if (rng.chance(10)) m.topics.add("gone");
            }
        }
    }

    static List<String> randomSubset(Rng rng, List<String> names, int min) {
        List<String> out = new ArrayList<>();
        for (String t : names) if (rng.chance(60)) out.add(t);
        while (out.size() < Math.min(min, names.size())) {
            String t = rng.pick(names);
            if (!out.contains(t)) out.add(t);
        }
        rng.shuffle(out);
        return out;
    }

    static boolean allEqual(List<Member> members) {
        Set<String> first = null;
        for (Member m : members) {
            Set<String> s = new TreeSet<>(m.topics);
            if (first == null) first = s;
            else if (!first.equals(s)) return false;
        }
        return true;
    }

    /**
     * A rebalance: the previous round (generation g) computed by Kafka's own sticky assignor
     * (cooperative-sticky's for cooperative-sticky) over an earlier membership; then members
     * leave, join and change topics, partition counts may grow, and the survivors report
     * what they own (in a shuffled order), mostly from generation g, some from an older one,
     * some with no generation.
     */
    static List<Member> afterPreviousRound(Rng rng, String strategy, Map<String, Integer> topics, List<Member> members,
                                           boolean statics, Set<String> ids) {
        String previous = strategy.equals("cooperative-sticky") ? strategy : "sticky";
        int generation = rng.between(2, 8);
        Map<String, Object> before = clientJson("", previous, topics, members);
        Map<String, Object> assigned;
        try {
            assigned = ClientAssignors.expect(before);
        } catch (RuntimeException e) {
            assigned = new LinkedHashMap<>();
        }
        List<Member> after = new ArrayList<>();
        for (Member m : members) {
            if (members.size() > 1 && rng.chance(15)) continue;
            List<List<Object>> owned = new ArrayList<>();
            Object mine = assigned.get(m.id);
            if (mine != null) {
                for (Map.Entry<String, Object> e : Json.obj(mine).entrySet()) {
                    for (Object p : Json.arr(e.getValue())) owned.add(List.of(e.getKey(), p));
                }
            }
            if (rng.chance(50)) rng.shuffle(owned);
            if (!owned.isEmpty()) m.owned = owned;
            int g = rng.below(100);
            m.generation = g < 80 ? Integer.valueOf(generation) : g < 95 ? Integer.valueOf(generation - rng.between(1, 2)) : null;
            if (rng.chance(15)) m.topics = randomSubset(rng, new ArrayList<>(topics.keySet()), 1);
            after.add(m);
        }
        int joining = rng.below(4);
        for (int i = 0; i < joining; i++) {
            Member m = newMember(rng, ids, members.size() + i, statics);
            m.topics = new ArrayList<>(rng.pick(after.isEmpty() ? members : after).topics);
            rng.shuffle(m.topics);
            after.add(m);
        }
        for (Map.Entry<String, Integer> t : topics.entrySet()) {
            if (t.getValue() > 0 && rng.chance(20)) t.setValue(t.getValue() + rng.between(1, 4));
        }
        if (rng.chance(30)) rng.shuffle(after);
        return after;
    }

    /** Owned partitions drawn at random (some of a topic that no longer exists), generations
     * current, older or missing, and partitions claimed by two members. */
    static void ownAtRandom(Rng rng, Map<String, Integer> topics, List<Member> members) {
        int generation = rng.between(2, 8);
        List<List<Object>> all = new ArrayList<>();
        for (Map.Entry<String, Integer> t : topics.entrySet()) {
            for (int p = 0; p < t.getValue(); p++) all.add(List.of(t.getKey(), (long) p));
        }
        if (rng.chance(20)) all.add(List.of("gone", (long) rng.below(3)));
        for (Member m : members) {
            if (rng.chance(70)) {
                List<List<Object>> owned = new ArrayList<>();
                for (List<Object> tp : all) if (rng.chance(100 / Math.max(1, members.size()) + 5)) owned.add(tp);
                rng.shuffle(owned);
                if (!owned.isEmpty()) m.owned = owned;
            }
            int g = rng.below(100);
            m.generation = g < 50 ? Integer.valueOf(generation) : g < 85 ? Integer.valueOf(generation - rng.between(1, 3)) : null;
        }
        // Conflicting claims: a partition of one member's also claimed by another.
        if (members.size() > 1) {
            int conflicts = rng.below(4);
            for (int i = 0; i < conflicts; i++) {
                Member from = rng.pick(members);
                Member to = rng.pick(members);
                if (from == to || from.owned == null) continue;
                List<Object> tp = rng.pick(from.owned);
                if (to.owned == null) to.owned = new ArrayList<>();
                if (!to.owned.contains(tp)) to.owned.add(tp);
            }
        }
    }

    /**
     * Tree bins: 8 to 49 member ids with equal {@code String.hashCode} (a shared prefix and
     * blocks of {@code Aa}/{@code BB}, whose hash codes are equal), alone or among up to 40
     * other ids, in a random JoinGroup order.
     */
    static Map<String, Object> treeBins(Rng rng, String strategy) {
        int equalCount = EQUAL_HASH_COUNTS[rng.below(EQUAL_HASH_COUNTS.length)];
        int blocks = 32 - Integer.numberOfLeadingZeros(equalCount - 1) + rng.below(2);
        String prefix = rng.pick(List.of("m", "", "consumer-", "member-"));
        Set<String> ids = new LinkedHashSet<>();
        List<Member> members = new ArrayList<>();
        while (members.size() < equalCount) {
            StringBuilder id = new StringBuilder(prefix);
            for (int b = 0; b < blocks; b++) id.append(rng.chance(50) ? "Aa" : "BB");
            if (ids.add(id.toString())) {
                Member m = new Member();
                m.id = id.toString();
                members.add(m);
            }
        }
        int others = rng.chance(50) ? 0 : rng.between(1, 40);
        for (int i = 0; i < others; i++) members.add(newMember(rng, ids, 100 + i, false));
        rng.shuffle(members);
        Map<String, Integer> topics = randomTopics(rng, 1, 2, 60);
        boolean equal = rng.chance(60);
        subscribe(rng, members, topics, equal);
        boolean rebalance = rng.chance(50);
        if (rebalance) {
            members = afterPreviousRound(rng, strategy, topics, members, false, ids);
        } else {
            ownAtRandom(rng, topics, members);
        }
        String label = equalCount + " member ids with equal hashCode" + (others > 0 ? " among " + members.size() + " members" : "")
            + (rebalance ? ", rebalance after a previous round" : ", owned partitions and generations")
            + ", " + (allEqual(members) ? "equal" : "unequal") + " subscriptions";
        return clientJson(label, strategy, topics, members);
    }

    /**
     * The sticky assignors' general path with hundreds of partitions moving: topic
     * {@code big} (600 to 1,100 partitions) almost all owned by one member, {@code side}
     * subscribed by some of the others, so subscriptions differ.
     */
    static Map<String, Object> generalPath(Rng rng, String strategy) {
        Map<String, Integer> topics = new LinkedHashMap<>();
        topics.put("big", rng.between(600, 1100));
        topics.put("side", rng.between(2, 17));
        Set<String> ids = new LinkedHashSet<>();
        List<Member> members = new ArrayList<>();
        int n = rng.between(2, 5);
        for (int i = 0; i < n; i++) {
            Member m = newMember(rng, ids, i, false);
            m.topics = i == 0 || rng.chance(50) && i != 1 ? new ArrayList<>(List.of("big")) : new ArrayList<>(List.of("big", "side"));
            m.generation = i == 0 || rng.chance(50) ? Integer.valueOf(4) : null;
            members.add(m);
        }
        List<List<Object>> owned = new ArrayList<>();
        for (int p = 0; p < topics.get("big"); p++) if (rng.below(100) < 95) owned.add(List.of("big", (long) p));
        rng.shuffle(owned);
        members.get(0).owned = owned;
        rng.shuffle(members);
        return clientJson("general path, hundreds of partitions of one topic move", strategy, topics, members);
    }

    static Map<String, Object> clientJson(String label, String strategy, Map<String, Integer> topics, List<Member> members) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("label", label);
        c.put("strategy", strategy);
        Map<String, Object> t = new LinkedHashMap<>();
        topics.forEach((k, v) -> t.put(k, (long) v));
        c.put("topics", t);
        List<Object> ms = new ArrayList<>();
        for (Member m : members) ms.add(m.json());
        c.put("members", ms);
        return c;
    }

    // ---------------------------------------------------------------------------------
    // Server assignors.

    /** topics x most partitions per topic x members at round 0. */
    static final int[][] SERVER_SHAPES = {
        {1, 8, 3}, {1, 40, 3}, {1, 100, 7}, {1, 1000, 9}, {2, 30, 4}, {2, 3, 8}, {3, 20, 5}, {4, 300, 13}, {5, 12, 6}, {8, 64, 20},
    };

    /** A consumer-protocol member: its record is {@code owned}, in the record's order. */
    static final class ServerMember {
        String id;
        String instance;
        List<String> topics = new ArrayList<>();
        List<Object> owned = new ArrayList<>();

        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("member_id", id);
            if (instance != null) m.put("group_instance_id", instance);
            m.put("subscription", new ArrayList<>(topics));
            if (!owned.isEmpty()) m.put("owned", owned);
            return m;
        }
    }

    static void server(Rng rng, int chains) {
        for (String strategy : List.of("uniform", "range")) {
            for (String kind : List.of("homogeneous", "heterogeneous")) {
                for (int chain = 0; chain < chains; chain++) {
                    serverChain(rng, strategy, kind, SERVER_SHAPES[chain % SERVER_SHAPES.length]);
                }
            }
        }
        for (int i = 0; i < chains; i++) shuffledRecords(rng);
    }

    /**
     * Five rounds of one group: round 0 has no stored assignment; each later round stores
     * what Kafka wrote in the one before (its records, in Kafka's order), with members
     * leaving and joining (at the end), heterogeneous members changing topics, and partition
     * counts growing.
     */
    static void serverChain(Rng rng, String strategy, String kind, int[] shape) {
        int topicCount = shape[0];
        Map<String, Integer> topics = new LinkedHashMap<>();
        for (int i = 0; i < topicCount; i++) topics.put(topicCount == 1 ? "t" : "t" + i, rng.between(1, shape[1]));
        Map<String, String> topicIds = new LinkedHashMap<>();
        for (String t : topics.keySet()) topicIds.put(t, rng.kafkaUuid());
        int style = rng.below(4);
        Set<String> ids = new LinkedHashSet<>();
        Set<String> instances = new LinkedHashSet<>();
        boolean statics = rng.chance(40);
        List<ServerMember> members = new ArrayList<>();
        for (int i = 0; i < shape[2]; i++) members.add(newServerMember(rng, style, ids, instances, statics, topics, kind));
        for (int round = 0; round < 5; round++) {
            Map<String, Object> c = serverJson(strategy + " " + kind + " " + shape[0] + "x" + shape[1] + "x" + shape[2] + " round " + round,
                strategy, topics, topicIds, members);
            ServerAssignors.Outcome outcome;
            try {
                outcome = ServerAssignors.compute(new LinkedHashMap<>(c));
            } catch (RuntimeException e) {
                leftOut++;
                System.err.println("left out, Kafka throws " + e + ": " + Json.write(c));
                return;
            }
            c.put("expect", outcome.expect);
            OUT.println(Json.write(c));
            for (ServerMember m : members) m.owned = outcome.records.get(m.id);
            // The next round's changes.
            List<ServerMember> next = new ArrayList<>();
            for (ServerMember m : members) {
                if (members.size() > 1 && rng.chance(15)) continue;
                if (kind.equals("heterogeneous") && rng.chance(15)) m.topics = randomSubset(rng, new ArrayList<>(topics.keySet()), 1);
                next.add(m);
            }
            int joining = rng.below(3);
            for (int i = 0; i < joining; i++) next.add(newServerMember(rng, style, ids, instances, statics, topics, kind));
            members = next;
            for (Map.Entry<String, Integer> t : topics.entrySet()) {
                if (rng.chance(20)) t.setValue(t.getValue() + rng.between(1, Math.max(1, shape[1] / 2)));
            }
        }
    }

    /** Member ids as the coordinator sees them: {@code consumerN}, {@code m-xxxx}, KIP-848
     * member ids (Kafka uuids), or ids whose hash codes collide ({@code Aa}, {@code BB}, ...). */
    static ServerMember newServerMember(Rng rng, int style, Set<String> ids, Set<String> instances, boolean statics,
                                        Map<String, Integer> topics, String kind) {
        ServerMember m = new ServerMember();
        List<String> colliding = List.of("Aa", "BB", "AaAa", "AaBB", "BBAa", "BBBB", "x", "y");
        do {
            switch (style) {
                case 0: m.id = "consumer" + (ids.size() + 1); break;
                case 1: m.id = "m-" + rng.hex(4); break;
                case 2: m.id = rng.kafkaUuid(); break;
                default: {
                    String base = colliding.get(ids.size() < colliding.size() ? ids.size() : rng.below(colliding.size()));
                    m.id = ids.contains(base) ? base + "-" + ids.size() : base;
                }
            }
        } while (!ids.add(m.id));
        if (statics && rng.chance(50)) {
            do {
                m.instance = "instance-" + rng.below(100);
            } while (!instances.add(m.instance));
        }
        List<String> names = new ArrayList<>(topics.keySet());
        if (kind.equals("homogeneous")) {
            m.topics = new ArrayList<>(names);
            rng.shuffle(m.topics);
        } else {
            m.topics = randomSubset(rng, names, 1);
        }
        return m;
    }

    /**
     * Stored records whose partitions are not in ascending order (what a member kept after
     * earlier moves): every partition dealt to the members at random, each record shuffled;
     * then new members join ({@code scale-out}) or none does ({@code steady}).
     */
    static void shuffledRecords(Rng rng) {
        String strategy = rng.chance(60) ? "uniform" : "range";
        int topicCount = rng.between(1, 3);
        Map<String, Integer> topics = new LinkedHashMap<>();
        for (int i = 0; i < topicCount; i++) topics.put(topicCount == 1 ? "t" : "t" + i, rng.between(1, 60));
        Map<String, String> topicIds = new LinkedHashMap<>();
        for (String t : topics.keySet()) topicIds.put(t, rng.kafkaUuid());
        Set<String> ids = new LinkedHashSet<>();
        Set<String> instances = new LinkedHashSet<>();
        int style = rng.below(4);
        List<ServerMember> members = new ArrayList<>();
        int owners = rng.between(2, 6);
        for (int i = 0; i < owners; i++) members.add(newServerMember(rng, style, ids, instances, true, topics, "homogeneous"));
        for (Map.Entry<String, Integer> t : topics.entrySet()) {
            for (int p = 0; p < t.getValue(); p++) members.get(rng.below(owners)).owned.add(List.of(t.getKey(), (long) p));
        }
        for (ServerMember m : members) {
            // Keep a record's topics together (a record lists each topic once), shuffle within.
            Map<Object, List<Object>> byTopic = new LinkedHashMap<>();
            for (Object tp : m.owned) byTopic.computeIfAbsent(Json.arr(tp).get(0), k -> new ArrayList<>()).add(tp);
            List<Object> topicOrder = new ArrayList<>(byTopic.keySet());
            rng.shuffle(topicOrder);
            m.owned = new ArrayList<>();
            for (Object t : topicOrder) {
                List<Object> ps = byTopic.get(t);
                rng.shuffle(ps);
                m.owned.addAll(ps);
            }
        }
        boolean scaleOut = rng.chance(70);
        if (scaleOut) {
            int joining = rng.between(1, 2);
            for (int i = 0; i < joining; i++) members.add(newServerMember(rng, 2, ids, instances, false, topics, "homogeneous"));
        }
        Map<String, Object> c = serverJson(scaleOut ? "shuffled owned scale-out" : "shuffled owned steady", strategy, topics, topicIds, members);
        emit(c, ServerAssignors::expect);
    }

    static Map<String, Object> serverJson(String note, String strategy, Map<String, Integer> topics, Map<String, String> topicIds,
                                          List<ServerMember> members) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("note", note);
        c.put("protocol", "consumer");
        c.put("strategy", strategy);
        Map<String, Object> t = new LinkedHashMap<>();
        topics.forEach((k, v) -> t.put(k, (long) v));
        c.put("topics", t);
        c.put("topic_ids", new LinkedHashMap<String, Object>(topicIds));
        List<Object> ms = new ArrayList<>();
        for (ServerMember m : members) ms.add(m.json());
        c.put("members", ms);
        return c;
    }

    // ---------------------------------------------------------------------------------
    // java.util.HashMap.

    /**
     * Put/remove sequences whose keys crowd a few bins: {@code Integer}s that agree in
     * their low bits (a base plus multiples of 16 to 65,536), or many random ones below
     * 1,050 (resizes and splits); {@code String}s of {@code Aa}/{@code BB} blocks (equal hash
     * codes), with and without a prefix.
     */
    static void hashmap(Rng rng, int count) {
        for (int i = 0; i < count; i++) {
            Map<String, Object> c = new LinkedHashMap<>();
            List<String> keys = new ArrayList<>();
            boolean ints = rng.chance(60);
            int ops;
            if (ints) {
                if (rng.chance(50)) {
                    int stride = rng.pick(List.of(16, 64, 128, 256, 1024, 65536));
                    int base = rng.below(stride);
                    int span = rng.between(8, 40);
                    for (int k = 0; k < span; k++) keys.add(String.valueOf(base + stride * k));
                    ops = rng.between(10, 70);
                } else {
                    for (int k = 0; k < 1050; k++) keys.add(String.valueOf(k));
                    ops = rng.between(60, 260);
                }
            } else {
                int blocks = rng.between(3, 5);
                List<String> prefixes = rng.chance(50) ? List.of("") : List.of("", "x", "consumer-");
                for (String prefix : prefixes) {
                    for (int k = 0; k < (1 << blocks); k++) {
                        StringBuilder s = new StringBuilder(prefix);
                        for (int b = blocks - 1; b >= 0; b--) s.append((k >> b & 1) == 0 ? "Aa" : "BB");
                        keys.add(s.toString());
                    }
                }
                ops = rng.between(10, 130);
            }
            boolean removes = rng.chance(70);
            List<String> present = new ArrayList<>();
            List<Object> opList = new ArrayList<>();
            for (int k = 0; k < ops; k++) {
                if (removes && !present.isEmpty() && rng.chance(25)) {
                    String key = rng.pick(present);
                    present.remove(key);
                    opList.add("-" + key);
                } else {
                    String key = rng.pick(keys);
                    if (!present.contains(key)) present.add(key);
                    opList.add("+" + key);
                }
            }
            c.put("keys", ints ? "int" : "string");
            c.put("ops", opList);
            emitField(c, "order", JavaHashMap::order);
        }
    }

    // ---------------------------------------------------------------------------------

    static boolean emit(Map<String, Object> c, java.util.function.Function<Map<String, Object>, Object> expect) {
        return emitField(c, "expect", expect);
    }

    static boolean emitField(Map<String, Object> c, String field, java.util.function.Function<Map<String, Object>, Object> compute) {
        try {
            c.put(field, compute.apply(new LinkedHashMap<>(c)));
        } catch (RuntimeException e) {
            leftOut++;
            System.err.println("left out, Kafka throws " + e + ": " + Json.write(c));
            return false;
        }
        OUT.println(Json.write(c));
        return true;
    }
}
