package io.ax.redis;

import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.logging.Loggers;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.OwnedInstance;
import io.ax.core.store.Permits;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Permits on Redis ({@code ax.redis.permits=true}), with the database's rule of who holds one. The slots live in Redis,
 * taken and given back by scripts that read and write all the keys of a claim at once: one hash per limit of attempts
 * at once (a field per holding attempt, naming its slot) and one sorted set per rate (a member per claim, scored by the
 * end of its window on Redis's clock, a sliding log as in the database). Whether a permit is held is still what the
 * store says: its attempt is RUNNING there at its number. So a claim runs in three steps:
 *
 * <ol>
 *   <li>the permits are taken in Redis, marked <em>pending</em> with a token of this claim;
 *   <li>the claim's conditional, fenced change to RUNNING is applied by the store;
 *   <li>the permits are <em>confirmed</em> in Redis, only if each still carries the token. One that does not was
 *       cleared meanwhile by another claim (below): the attempt is given back unstarted (RUNNING to SCHEDULED, fenced
 *       as the claim was) and never starts, so no two attempts hold one slot. The windows of its rates then begin
 *       again, at the commit: the attempt starts then, however long the store's write took.
 * </ol>
 *
 * <p>A claim that finds a limit full looks up its holders in the store: a confirmed holder whose attempt is no longer
 * RUNNING (it ended without a release, or its node died and it was taken over), and a pending one older than {@link
 * #PENDING_GRACE} that is not RUNNING either (its claim failed midway), is cleared by a compare-and-delete on the
 * value read before the lookup, and the claim tries again. A permit of a dead node so comes back once its attempt is
 * taken over, as in the database. A release clears what its claim took, by compare-and-delete on the values with its
 * token, as soon as the attempt's worker is done: a late release never frees the permit of the same attempt claimed
 * again (the value changed), so it need not wait for the attempt's end to be stored as the database's does.
 *
 * <p>While Redis does not answer, a claim waits, with the cause in its audit row: permits cannot fall back to the
 * database and stay one set of permits. A Redis that restarted empty has forgotten the holders: the first claim or
 * look that finds no era (a hash naming the permits' current one) makes a new one with a quarantine, during which
 * every claim waits, and each node that holds permits sees the era change (its watch, thread {@code
 * ax-permits-watch}, looks every {@link #WATCH}) and puts back what it holds, rates' members within their window
 * included. A failover to a replica that missed the last writes is seen the same way: the era names the replication id
 * of the primary it was made on, which the promoted replica does not have, so the first claim or look on it makes a new
 * era. The quarantine is the cluster's lease plus its heartbeat: a node paused for longer has lost its lease and its
 * attempts are taken over, so the store says what they held is free. All keys share one hash tag, so Redis Cluster
 * keeps them in one slot. Thread-safe.
 */
final class RedisPermits implements Permits, AutoCloseable {

    private static final System.Logger LOG = Loggers.get(RedisPermits.class.getName());

    /**
     * How long a permit may stay pending (taken, its claim not yet confirmed) before a claim that needs its slot may
     * clear it, once the store shows its attempt is not RUNNING: longer than a claim's store write takes. A claim
     * slower than that finds its permit gone at the confirmation and gives its attempt back unstarted.
     */
    static final Duration PENDING_GRACE = Duration.ofSeconds(10);

    /** How often a node that holds permits looks whether Redis still has them (the era is the one they are in). */
    static final Duration WATCH = Duration.ofMillis(250);

    /** How many times a claim tries again after clearing permits of attempts that were over. */
    private static final int CLEAR_ROUNDS = 3;

    /** How many holders a wait names at most. */
    private static final int NAMED = 20;

    /**
     * Redis's clock in µs, plus the skew its caller passes as its first argument (0 but in tests). A Lua number is a
     * double, exact for these; it is written with {@code string.format('%d')}, as plain concatenation rounds it.
     */
    private static final String NOW = "local t = redis.call('TIME')"
            + " local now = tonumber(t[1]) * 1000000 + tonumber(t[2]) + tonumber(ARGV[1]) ";

    /**
     * The era: KEYS[1] names, with its id, the time until which claims wait after Redis started afresh, and the
     * replication id of the primary it was made on. Made by the first claim or look that finds none, or one made on
     * another primary (a failover, or a restart: either may have lost permits), with ARGV[2] (an id) and ARGV[3] (the
     * quarantine, µs); sets {@code era}.
     */
    private static final String ERA = Replication.REPLID
            + "local era = redis.call('HMGET', KEYS[1], 'id', 'until', 'replid')"
            + " if not era[1] or era[3] ~= replid then"
            + "  era = {ARGV[2], string.format('%d', now + tonumber(ARGV[3]))}"
            + "  redis.call('HSET', KEYS[1], 'id', era[1], 'until', era[2], 'replid', replid)"
            + " end ";

    /**
     * KEYS: the era, then each limit's key. ARGV: skew, a new era's id, quarantine, member, token, node, then per limit
     * its permits and its window in µs (0 for attempts at once). Returns {1, now, era, per limit its slot (attempts at
     * once) or whether this claim added its member (a rate: 1 or 0)}; {0, index of the limit that is full, or whose
     * permit another claim of this attempt holds, now, its holders as member, value pairs}; or {2, era, µs until the
     * quarantine ends}.
     *
     * <p>Two claims of one attempt (two nodes that both take it for theirs across a move, or a node that dispatches it
     * again) never share a permit of attempts at once: the second waits while the first's is there, confirmed or
     * pending within the grace, for the first claim's undo, after its store write failed, would free the permit of the
     * attempt the second claim started. A pending one past the grace is taken over, as a claim that needs the slot
     * clears it: its claim, if it ever applies, finds its token gone and gives its attempt back. A rate's member is
     * shared, as an attempt claimed again counts once in a window: the claim that finds it bumps its score by 1 µs, so
     * that the undo of the claim that added it leaves it.
     */
    private static final RedisScript<List> CLAIM = RedisScript.of(
            NOW + ERA
                    + "if now < tonumber(era[2]) then return {2, era[1], tonumber(era[2]) - now} end"
                    + " local member = ARGV[4] local n = #KEYS - 1 local slots = {}"
                    + " for i = 1, n do"
                    + "  local key = KEYS[i + 1] local permits = tonumber(ARGV[2 * i + 5])"
                    + "  local window = tonumber(ARGV[2 * i + 6])"
                    + "  if window > 0 then"
                    + "   redis.call('ZREMRANGEBYSCORE', key, '-inf', string.format('%d', now))"
                    + "   local held = redis.call('ZSCORE', key, member)"
                    + "   if held then slots[i] = -1"
                    + "    redis.call('ZADD', key, 'XX', string.format('%d', tonumber(held) + 1), member)"
                    + "   elseif redis.call('ZCARD', key) >= permits then"
                    + "    local r = {0, i, now} local held = redis.call('ZRANGE', key, 0, " + (NAMED - 1) + ")"
                    + "    for _, m in ipairs(held) do r[#r + 1] = m r[#r + 1] = '' end return r"
                    + "   else slots[i] = -2 end"
                    + "  else"
                    + "   local h = redis.call('HGETALL', key) local used = {} local count = 0 local own = nil"
                    + "   local ownValue = nil"
                    + "   for j = 1, #h, 2 do"
                    + "    local slot = tonumber(string.match(h[j + 1], '^%a|[^|]*|(%d+)|'))"
                    + "    if h[j] == member then own = slot ownValue = h[j + 1]"
                    + "    else used[slot] = true count = count + 1 end"
                    + "   end"
                    + "   if own then"
                    + "    local since = tonumber(string.match(ownValue, '^p|[^|]*|%d+|(%d+)|'))"
                    + "    if since and now - since > " + TimeUnit.MICROSECONDS.convert(PENDING_GRACE) + " then"
                    + "     slots[i] = own"
                    + "    else return {0, i, now, member, ownValue} end"
                    + "   else"
                    + "    local free = nil"
                    + "    if count < permits then"
                    + "     for s = 0, permits - 1 do if not used[s] then free = s break end end"
                    + "    end"
                    + "    if not free then"
                    + "     local r = {0, i, now} for j = 1, #h, 2 do r[#r + 1] = h[j] r[#r + 1] = h[j + 1] end"
                    + "     return r"
                    + "    end"
                    + "    slots[i] = free"
                    + "   end"
                    + "  end"
                    + " end"
                    + " local r = {1, now, era[1]}"
                    + " for i = 1, n do"
                    + "  local key = KEYS[i + 1] local window = tonumber(ARGV[2 * i + 6])"
                    + "  if window > 0 then"
                    + "   if slots[i] == -2 then"
                    + "    redis.call('ZADD', key, string.format('%d', now + window), member)"
                    + "    redis.call('PEXPIRE', key, math.floor(window / 1000) + 1000) r[#r + 1] = 1"
                    + "   else r[#r + 1] = 0 end"
                    + "  else"
                    + "   redis.call('HSET', key, member, 'p|' .. ARGV[5] .. '|' .. slots[i] .. '|'"
                    + "    .. string.format('%d', now) .. '|' .. ARGV[6]) r[#r + 1] = slots[i]"
                    + "  end"
                    + " end"
                    + " return r",
            List.class);

    /**
     * KEYS: the era, then keys. ARGV: skew, a new era's id, quarantine, then per key a member, its value (a hash's) and
     * its score (a rate's; '' for a hash). Puts back what a node holds, after Redis started afresh: each member unless
     * it is there, a rate's only within its window. Returns the era.
     */
    private static final RedisScript<String> PUT_BACK = RedisScript.of(
            NOW + ERA
                    + "for i = 2, #KEYS do"
                    + " local m = ARGV[3 * i - 2] local v = ARGV[3 * i - 1] local score = ARGV[3 * i]"
                    + " if score == '' then redis.call('HSETNX', KEYS[i], m, v)"
                    + " elseif tonumber(score) > now then"
                    + "  redis.call('ZADD', KEYS[i], 'NX', score, m)"
                    + "  redis.call('PEXPIRE', KEYS[i], math.floor((tonumber(score) - now) / 1000) + 1000)"
                    + " end"
                    + " end return era[1]",
            String.class);

    /**
     * KEYS: the era. ARGV: skew, a new era's id, quarantine. Returns the era, made anew when there is none or it was
     * made on another primary: a node that holds permits so sees a failover without waiting for a claim.
     */
    private static final RedisScript<String> LOOK = RedisScript.of(NOW + ERA + "return era[1]", String.class);

    /**
     * KEYS: the limits' hashes. ARGV: member, token. Marks each permit confirmed while it carries the token; returns
     * how many did not (cleared meanwhile).
     */
    private static final RedisScript<Long> CONFIRM = RedisScript.of(
            "local lost = 0 local p = 'p|' .. ARGV[2] .. '|' local c = 'c|' .. ARGV[2] .. '|'"
                    + " for _, key in ipairs(KEYS) do local v = redis.call('HGET', key, ARGV[1]) or ''"
                    + " if string.sub(v, 1, #p) == p then redis.call('HSET', key, ARGV[1], c .. string.sub(v, #p + 1))"
                    + " elseif string.sub(v, 1, #c) ~= c then lost = lost + 1 end"
                    + " end return lost",
            Long.class);

    /**
     * KEYS: hashes, then rate sets. ARGV: member, token, how many hashes, then per rate set the score the claim gave
     * its member. Undoes a claim that did not go through: its permits that still carry its token, and the rate members
     * it added that no other claim of the attempt found since (that one bumped the score).
     */
    private static final RedisScript<Long> UNDO = RedisScript.of(
            "local n = tonumber(ARGV[3]) for i, key in ipairs(KEYS) do"
                    + " if i <= n then local v = redis.call('HGET', key, ARGV[1]) or ''"
                    + "  if string.sub(v, 2, #ARGV[2] + 3) == '|' .. ARGV[2] .. '|' then"
                    + "   redis.call('HDEL', key, ARGV[1])"
                    + "  end"
                    + " elseif tonumber(redis.call('ZSCORE', key, ARGV[1]) or '-1') == tonumber(ARGV[i + 3 - n]) then"
                    + "  redis.call('ZREM', key, ARGV[1])"
                    + " end"
                    + " end return 0",
            Long.class);

    /**
     * KEYS: rate sets. ARGV: skew, member, then per key its window (µs). Once the claim committed, its member's window
     * begins now, when its attempt may start, unless it ends later already: a claim whose store write took a while
     * would otherwise have its window half over as its handler started, and the next window's starts come beside it.
     * Returns now.
     */
    private static final RedisScript<Long> FROM_COMMIT = RedisScript.of(
            NOW + "for i, key in ipairs(KEYS) do"
                    + " local upto = now + tonumber(ARGV[i + 2]) local held = redis.call('ZSCORE', key, ARGV[2])"
                    + " if held and tonumber(held) < upto then"
                    + "  redis.call('ZADD', key, 'XX', string.format('%d', upto), ARGV[2])"
                    + "  redis.call('PEXPIRE', key, math.floor(tonumber(ARGV[i + 2]) / 1000) + 1000)"
                    + " end"
                    + " end return now",
            Long.class);

    /** KEYS: hashes. ARGV: per key its member and the value it must still have. Returns how many were cleared. */
    private static final RedisScript<Long> CLEAR = RedisScript.of(
            "local n = 0 for i, key in ipairs(KEYS) do"
                    + " if redis.call('HGET', key, ARGV[2 * i - 1]) == ARGV[2 * i] then"
                    + "  redis.call('HDEL', key, ARGV[2 * i - 1]) n = n + 1 end"
                    + " end return n",
            Long.class);

    /**
     * KEYS: limits' keys. ARGV: the skew. Returns now, then per key that holds any its name and its members and values
     * (of a rate, the members within their window).
     */
    private static final RedisScript<List> HELD = RedisScript.of(
            NOW + "local r = {now} for _, key in ipairs(KEYS) do"
                    + " local kind = redis.call('TYPE', key)['ok'] local entries = {}"
                    + " if kind == 'hash' then entries = redis.call('HGETALL', key)"
                    + " elseif kind == 'zset' then"
                    + "  for _, m in ipairs(redis.call('ZRANGEBYSCORE', key, '(' .. string.format('%d', now), '+inf')) do"
                    + "   entries[#entries + 1] = m entries[#entries + 1] = '' end"
                    + " end"
                    + " if #entries > 0 then r[#r + 1] = key r[#r + 1] = entries end"
                    + " end return r",
            List.class);

    private final RedisLink link;
    private final InstanceStore store;
    private final BiConsumer<Transition, String> noteWait;
    private final String era;
    private final String hashPrefix;
    private final String ratePrefix;
    private final long quarantineMicros;
    private final LongSupplier skewMicros;
    private final ScheduledThreadPoolExecutor watch;

    /**
     * Instance id and attempt -> what its claims on this node hold of each limit of attempts at once (hash -> value),
     * oldest first: the same attempt given back unstarted may be claimed again before the first claim's release.
     */
    private final Map<String, Deque<Map<String, String>>> heldHere = new ConcurrentHashMap<>();

    /** The rate members this node added, by rate set and member, with the end of their window (µs, Redis's clock). */
    private final Map<RateClaim, Long> ratesHere = new ConcurrentHashMap<>();

    /** The era this node's permits are in Redis under, as its last claim or look found it; null before. */
    private volatile String knownEra;

    /** Redis's clock, as the last reply gave it (µs): rate members of this node past their window are forgotten. */
    private volatile long lastNowMicros;

    private record RateClaim(String key, String member) {}

    /**
     * @param store the instances, whose states say which permits are held, and which applies the claims
     * @param noteWait writes a wait's audit row ({@link Permits#noteWait} of the store's own permits)
     * @param quarantine how long claims wait after Redis started afresh, while the nodes put back what they hold: the
     *     longest a live node takes to see it (a pause up to its lease) and to put them back
     * @param skewMicros added to Redis's clock, for tests that let a rate's window pass
     */
    RedisPermits(
            RedisLink link,
            InstanceStore store,
            BiConsumer<Transition, String> noteWait,
            Duration quarantine,
            LongSupplier skewMicros) {
        if (quarantine.isNegative()) {
            throw new IllegalArgumentException("the quarantine of permits on Redis is not negative: " + quarantine);
        }
        this.skewMicros = skewMicros;
        this.link = link;
        this.store = Objects.requireNonNull(store, "store");
        this.noteWait = Objects.requireNonNull(noteWait, "noteWait");
        this.quarantineMicros = TimeUnit.MICROSECONDS.convert(quarantine);
        this.era = link.key("{permits}:era");
        this.hashPrefix = link.key("{permits}:at-once:");
        this.ratePrefix = link.key("{permits}:rate:");
        this.watch = new ScheduledThreadPoolExecutor(1, RedisLink.daemon("ax-permits-watch"));
        long every = WATCH.toNanos();
        watch.scheduleWithFixedDelay(this::watchEra, every, every, TimeUnit.NANOSECONDS);
    }

    @Override
    public Outcome claim(Transition claim, List<Limit> limits, boolean auditWait) {
        List<Limit> ordered = Permits.inKeyOrder(claim, limits);
        Outcome outcome = claimTried(claim, ordered);
        if (outcome.result() == Result.WAITS && auditWait) {
            noteWait.accept(claim, outcome.reason());
        }
        return outcome;
    }

    private Outcome claimTried(Transition claim, List<Limit> limits) {
        if (limits.isEmpty()) {
            return store.transition(claim) ? Outcome.CLAIMED : Outcome.NOT_APPLIED;
        }
        if (!link.isUp()) {
            return Outcome.unavailable(limits.get(0), "Redis, which keeps the permits, does not answer");
        }
        String member = member(claim.instanceId(), claim.attempt());
        String token = UUID.randomUUID().toString();
        List<String> scriptKeys = new ArrayList<>(limits.size() + 1);
        List<String> args = new ArrayList<>(6 + 2 * limits.size());
        scriptKeys.add(era);
        args.addAll(List.of(
                Long.toString(skewMicros.getAsLong()),
                UUID.randomUUID().toString(),
                Long.toString(quarantineMicros),
                member,
                token,
                claim.node()));
        for (Limit limit : limits) {
            scriptKeys.add(keyOf(limit));
            args.add(Integer.toString(limit.permits()));
            args.add(Long.toString(limit.isRate() ? TimeUnit.MICROSECONDS.convert(limit.window()) : 0));
        }
        for (int round = 0; ; round++) {
            List<?> reply;
            try {
                reply = link.call(r -> r.execute(CLAIM, scriptKeys, args.toArray()));
            } catch (RuntimeException e) {
                // it may have taken them: pending permits nobody confirms, cleared after the grace
                return Outcome.unavailable(limits.get(0), "Redis, which keeps the permits, did not answer: " + e);
            }
            if (number(reply, 0) == 2) {
                eraSeen(String.valueOf(reply.get(1)));
                return Outcome.unavailable(
                        limits.get(0),
                        "Redis keeps the permits afresh (it restarted empty, failed over, or is new to them),"
                                + " and the nodes put back what they hold for " + (number(reply, 2) / 1000)
                                + " ms more");
            }
            if (number(reply, 0) == 1) {
                lastNowMicros = number(reply, 1);
                eraSeen(String.valueOf(reply.get(2)));
                return applied(claim, limits, member, token, reply);
            }
            Limit full = limits.get((int) number(reply, 1) - 1);
            List<Holder> holders = holders(full, reply);
            if (round < CLEAR_ROUNDS && !full.isRate() && clearOver(keyOf(full), holders, number(reply, 2))) {
                continue; // a holder's attempt was over: its slot is free now
            }
            return Outcome.waits(full, holders.stream().map(Holder::instanceId).toList());
        }
    }

    /** The permits are taken: the store applies the claim, then they are confirmed, or it is all undone. */
    private Outcome applied(Transition claim, List<Limit> limits, String member, String token, List<?> reply) {
        Map<String, String> hashes = new LinkedHashMap<>(); // hash -> the value it holds once confirmed
        List<String> undo = new ArrayList<>();
        long now = number(reply, 1);
        for (int i = 0; i < limits.size(); i++) {
            Limit limit = limits.get(i);
            if (!limit.isRate()) {
                hashes.put(keyOf(limit), "c|" + token + "|" + number(reply, 3 + i) + "|" + now + "|" + claim.node());
            }
        }
        undo.addAll(hashes.keySet());
        List<RateClaim> rates = new ArrayList<>();
        List<String> scores = new ArrayList<>();
        for (int i = 0; i < limits.size(); i++) {
            Limit limit = limits.get(i);
            if (limit.isRate() && number(reply, 3 + i) == 1) {
                long until = now + TimeUnit.MICROSECONDS.convert(limit.window());
                undo.add(keyOf(limit));
                scores.add(Long.toString(until));
                rates.add(new RateClaim(keyOf(limit), member));
                ratesHere.put(rates.get(rates.size() - 1), until);
            }
        }
        boolean applied;
        try {
            applied = store.transition(claim);
        } catch (RuntimeException e) { // fenced, or the store failed: the claim may or may not be stored
            undo(undo, member, token, hashes.size(), rates, scores);
            throw e;
        }
        if (!applied) {
            undo(undo, member, token, hashes.size(), rates, scores);
            return Outcome.NOT_APPLIED;
        }
        if (hashes.isEmpty()) {
            windowsFromCommit(limits, member);
            return Outcome.CLAIMED;
        }
        String lost;
        List<String> keys = List.copyOf(hashes.keySet());
        try {
            Long notConfirmed = link.call(r -> r.execute(CONFIRM, keys, member, token));
            lost = notConfirmed != null && notConfirmed == 0 ? null : "was cleared before it was confirmed";
        } catch (RuntimeException e) {
            lost = "could not be confirmed, Redis did not answer: " + e;
        }
        if (lost == null) {
            heldHere.compute(member, (m, claims) -> {
                Deque<Map<String, String>> all = claims == null ? new ArrayDeque<>() : claims;
                all.addLast(hashes);
                return all;
            });
            windowsFromCommit(limits, member);
            return Outcome.CLAIMED;
        }
        giveBack(claim, "returned: a permit of its claim " + lost + "; attempt " + claim.attempt() + " did not start");
        undo(undo, member, token, hashes.size(), rates, scores);
        return Outcome.NOT_APPLIED;
    }

    /** A claim or a look found the era: a new one means Redis started afresh, and this node puts back what it holds. */
    private void eraSeen(String seen) {
        String was = knownEra;
        if (was == null || heldHere.isEmpty() && ratesHere.isEmpty()) {
            // nothing of this node's to put back: a claim of an older era that confirms later finds its permit gone
            knownEra = seen;
        } else if (!was.equals(seen)) {
            try {
                watch.execute(this::watchEra);
            } catch (RejectedExecutionException closed) {
                // closed with the application: nothing of this node's is held any longer
            }
        }
    }

    /**
     * On the watch thread, every {@link #WATCH}: when this node holds permits and the era is not the one they were
     * taken in (Redis restarted empty: the era and every permit are gone; it failed over; or a claim made a new era
     * since), puts them back, making the era if there is none, whose quarantine holds every claim until the live nodes
     * have done so.
     */
    private void watchEra() {
        long now = lastNowMicros;
        ratesHere.values().removeIf(until -> until <= now);
        if (heldHere.isEmpty() && ratesHere.isEmpty() || !link.isUp()) {
            return;
        }
        try {
            String current = link.call(r -> r.execute(
                    LOOK,
                    List.of(era),
                    Long.toString(skewMicros.getAsLong()),
                    UUID.randomUUID().toString(),
                    Long.toString(quarantineMicros)));
            if (current.equals(knownEra)) {
                return;
            }
            List<String> keys = new ArrayList<>();
            List<String> args = new ArrayList<>();
            keys.add(era);
            args.addAll(List.of(
                    Long.toString(skewMicros.getAsLong()),
                    UUID.randomUUID().toString(),
                    Long.toString(quarantineMicros)));
            int n = 0;
            for (Map.Entry<String, List<Map<String, String>>> held : heldNow().entrySet()) {
                for (Map<String, String> claim : held.getValue()) {
                    for (Map.Entry<String, String> hash : claim.entrySet()) {
                        keys.add(hash.getKey());
                        args.addAll(List.of(held.getKey(), hash.getValue(), ""));
                        n++;
                    }
                }
            }
            for (Map.Entry<RateClaim, Long> rate : ratesHere.entrySet()) {
                keys.add(rate.getKey().key());
                args.addAll(List.of(rate.getKey().member(), "", Long.toString(rate.getValue())));
                n++;
            }
            String putIn = link.call(r -> r.execute(PUT_BACK, keys, args.toArray()));
            LOG.log(
                    Level.WARNING,
                    "Redis lost the permits of cluster-wide limits (it restarted empty, or failed over): this node"
                            + " put back the {0} it holds; limited claims wait for the other nodes to do the same",
                    n);
            knownEra = putIn;
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "The era of the permits was not looked at: {0}", e.toString());
        }
    }

    /**
     * The windows of the claim's rates begin at its commit (see {@link #FROM_COMMIT}). When Redis does not answer
     * now, they stay as the claim took them: begun a store write earlier.
     */
    private void windowsFromCommit(List<Limit> limits, String member) {
        List<String> keys = new ArrayList<>(1);
        List<String> args = new ArrayList<>(List.of(Long.toString(skewMicros.getAsLong()), member));
        for (Limit limit : limits) {
            if (limit.isRate()) {
                keys.add(keyOf(limit));
                args.add(Long.toString(TimeUnit.MICROSECONDS.convert(limit.window())));
            }
        }
        if (keys.isEmpty()) {
            return;
        }
        try {
            Long now = link.call(r -> r.execute(FROM_COMMIT, keys, args.toArray()));
            for (Limit limit : limits) {
                if (limit.isRate() && now != null) {
                    long upto = now + TimeUnit.MICROSECONDS.convert(limit.window());
                    ratesHere.computeIfPresent(new RateClaim(keyOf(limit), member), (k, was) -> Math.max(was, upto));
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "The rate windows of {0} begin at its permits: {1}", member, e.toString());
        }
    }

    /** The claim's attempt back to SCHEDULED, unstarted, as a node gives back what it did not start. */
    private void giveBack(Transition claim, String reason) {
        Transition back = new Transition(
                claim.instanceId(),
                InstanceState.RUNNING,
                InstanceState.SCHEDULED,
                claim.attempt(),
                claim.node(),
                claim.at(),
                reason,
                null,
                claim.owner(),
                claim.expectedOwner(),
                claim.fence(),
                claim.partitionEpoch());
        if (!store.transition(back)) {
            LOG.log(
                    Level.WARNING,
                    "Instance {0} could not be given back after its permit was lost: {1}",
                    claim.instanceId(),
                    "it moved on meanwhile");
        }
    }

    private void undo(
            List<String> undo, String member, String token, int hashes, List<RateClaim> rates, List<String> scores) {
        rates.forEach(ratesHere::remove);
        if (undo.isEmpty()) {
            return;
        }
        List<String> args = new ArrayList<>(List.of(member, token, Integer.toString(hashes)));
        args.addAll(scores);
        try {
            link.call(r -> r.execute(UNDO, undo, args.toArray()));
        } catch (RuntimeException e) {
            // left pending: the next claim that needs the slot clears it once the grace is over
            LOG.log(Level.DEBUG, "Permits of {0} not undone: {1}", member, e.toString());
        }
    }

    /**
     * Clears the permits of {@code holders} whose attempts are over in the store (a pending one only after the grace),
     * each only if Redis still has the value read: true when one was.
     */
    private boolean clearOver(String key, List<Holder> holders, long nowMicros) {
        long graceMicros = TimeUnit.MICROSECONDS.convert(PENDING_GRACE);
        List<Holder> candidates = holders.stream()
                .filter(h -> h.confirmed() || nowMicros - h.sinceMicros() > graceMicros)
                .toList();
        List<Holder> over = over(candidates);
        if (over.isEmpty()) {
            return false;
        }
        List<String> clearKeys = new ArrayList<>();
        List<String> args = new ArrayList<>();
        for (Holder h : over) {
            clearKeys.add(key);
            args.add(h.member());
            args.add(h.value());
        }
        Long cleared = link.call(r -> r.execute(CLEAR, clearKeys, args.toArray()));
        return cleared != null && cleared > 0;
    }

    /** Those of {@code holders} whose attempt the store does not have RUNNING at their number. */
    private List<Holder> over(List<Holder> holders) {
        if (holders.isEmpty()) {
            return List.of();
        }
        Map<String, TaskInstance> found = new HashMap<>();
        for (OwnedInstance o :
                store.findAll(holders.stream().map(Holder::instanceId).toList())) {
            found.put(o.instance().id(), o.instance());
        }
        return holders.stream()
                .filter(h -> {
                    TaskInstance in = found.get(h.instanceId());
                    return in == null || in.state() != InstanceState.RUNNING || in.attempt() != h.attempt();
                })
                .toList();
    }

    @Override
    public void noteWait(Transition claim, String reason) {
        noteWait.accept(claim, reason);
    }

    /**
     * Gives back at once what the oldest claim on this node of {@code attempt} holds, each permit only while it still
     * carries that claim's token: the attempt's worker is done with it (a handler deaf to its timeout's interrupt keeps
     * its worker, and so its permits), and the same attempt claimed again since holds its own. Unlike the database's,
     * this does not wait for the attempt's end to be stored, which a slot does not need: the token tells the claims
     * apart.
     *
     * @return 0: nothing stays for the caller to ask about again
     */
    @Override
    public int release(String instanceId, int attempt) {
        String member = member(instanceId, attempt);
        Map<String, String> oldest = oldestClaim(member);
        if (oldest == null) {
            return 0;
        }
        List<String> keys = new ArrayList<>();
        List<String> args = new ArrayList<>();
        oldest.forEach((hash, value) -> {
            keys.add(hash);
            args.add(member);
            args.add(value);
        });
        try {
            if (!link.isUp()) { // at once, not after a command's timeout on the attempt's worker
                throw new IllegalStateException("Redis, which keeps the permits, does not answer");
            }
            link.call(r -> r.execute(CLEAR, keys, args.toArray()));
        } catch (RuntimeException e) {
            heldHere.compute(member, (m, claims) -> { // asked again: the same claim first
                Deque<Map<String, String>> all = claims == null ? new ArrayDeque<>() : claims;
                all.addFirst(oldest);
                return all;
            });
            throw e;
        }
        return 0;
    }

    @Override
    public boolean releasesAtOnce() {
        return true;
    }

    /** Takes the oldest claim's holdings of {@code member} off this node's list; null for none. */
    private Map<String, String> oldestClaim(String member) {
        Object[] taken = new Object[1];
        heldHere.computeIfPresent(member, (m, claims) -> {
            taken[0] = claims.pollFirst();
            return claims.isEmpty() ? null : claims;
        });
        @SuppressWarnings("unchecked")
        Map<String, String> oldest = (Map<String, String>) taken[0];
        return oldest;
    }

    /** A copy of what this node holds, by member. */
    private Map<String, List<Map<String, String>>> heldNow() {
        Map<String, List<Map<String, String>>> copy = new HashMap<>();
        heldHere.forEach((member, claims) -> heldHere.computeIfPresent(member, (m, c) -> {
            copy.put(m, List.copyOf(c));
            return c;
        }));
        return copy;
    }

    /** Stops the watch; permits held stay in Redis until the store has their attempts over. */
    @Override
    public void close() {
        watch.shutdownNow();
    }

    @Override
    public List<Held> held(int limit) {
        if (limit <= 0) {
            return List.of();
        }
        List<String> found = new ArrayList<>();
        link.call(r -> {
            // a SCAN, not a set of the keys: a mutex per customer makes keys without end, each gone once it is empty
            try (Cursor<String> cursor = r.scan(ScanOptions.scanOptions()
                    .match(link.key("{permits}:*"))
                    .count(1_000)
                    .build())) {
                cursor.forEachRemaining(key -> {
                    if (key.startsWith(hashPrefix) || key.startsWith(ratePrefix)) {
                        found.add(key); // not the era
                    }
                });
            }
            return null;
        });
        if (found.isEmpty()) {
            return List.of();
        }
        List<?> reply = link.call(r -> r.execute(HELD, found, Long.toString(skewMicros.getAsLong())));
        List<Held> all = new ArrayList<>();
        List<Holder> attempts = new ArrayList<>();
        List<String> keyOf = new ArrayList<>(); // the key of each of attempts
        for (int i = 1; i + 1 < reply.size(); i += 2) {
            String redisKey = String.valueOf(reply.get(i));
            List<?> entries = (List<?>) reply.get(i + 1);
            boolean rate = redisKey.startsWith(ratePrefix);
            String key = redisKey.substring(rate ? ratePrefix.length() : hashPrefix.length());
            for (int j = 0; j + 1 < entries.size(); j += 2) {
                Holder h = new Holder(String.valueOf(entries.get(j)), String.valueOf(entries.get(j + 1)));
                if (rate) {
                    all.add(new Held(key, j / 2, h.instanceId(), h.attempt(), ""));
                } else {
                    attempts.add(h);
                    keyOf.add(key);
                }
            }
        }
        Set<Holder> over = Set.copyOf(over(attempts));
        for (int i = 0; i < attempts.size(); i++) {
            Holder h = attempts.get(i);
            if (!over.contains(h)) {
                all.add(new Held(keyOf.get(i), h.slot(), h.instanceId(), h.attempt(), h.node()));
            }
        }
        return all.stream()
                .sorted(Comparator.comparing(Held::key).thenComparingInt(Held::slot))
                .limit(limit)
                .toList();
    }

    private String keyOf(Limit limit) {
        return (limit.isRate() ? ratePrefix : hashPrefix) + limit.key();
    }

    /** The holders in a claim's reply from index 3: by slot for a limit of attempts at once, by window for a rate. */
    private static List<Holder> holders(Limit limit, List<?> reply) {
        List<Holder> holders = new ArrayList<>();
        for (int i = 3; i + 1 < reply.size(); i += 2) {
            holders.add(new Holder(String.valueOf(reply.get(i)), String.valueOf(reply.get(i + 1))));
        }
        if (!limit.isRate()) {
            holders.sort(Comparator.comparingInt(Holder::slot));
        }
        return holders;
    }

    /**
     * A permit's holder as Redis keeps it: the member names the attempt ({@code <instance id>|<attempt>}); for a limit
     * of attempts at once the value is {@code <p|c>|<token>|<slot>|<since, µs>|<node>}, p while pending, c confirmed.
     */
    private record Holder(String member, String value) {

        String instanceId() {
            return member.substring(0, member.lastIndexOf('|'));
        }

        int attempt() {
            return Integer.parseInt(member.substring(member.lastIndexOf('|') + 1));
        }

        boolean confirmed() {
            return value.startsWith("c|");
        }

        private String[] parts() {
            return value.split("\\|", 5);
        }

        int slot() {
            return value.isEmpty() ? 0 : Integer.parseInt(parts()[2]);
        }

        long sinceMicros() {
            return Long.parseLong(parts()[3]);
        }

        String node() {
            String[] p = parts();
            return p.length > 4 ? p[4] : "";
        }
    }

    private static String member(String instanceId, int attempt) {
        return instanceId + "|" + attempt;
    }

    private static long number(List<?> reply, int i) {
        Object v = reply.get(i);
        return v instanceof Number n ? n.longValue() : Long.parseLong(String.valueOf(v));
    }
}
