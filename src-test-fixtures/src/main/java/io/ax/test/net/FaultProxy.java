package io.ax.test.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A TCP proxy between a client under test (a JDBC pool, a child JVM) and one target (a database), which a test can
 * make misbehave on command: a network partition, a dropped connection, a refusing or slow server.
 *
 * <p>It listens on {@code 127.0.0.1} only, on a free port ({@link #port()}), and sends traffic to the one target it
 * was started with and nowhere else. Each accepted connection opens its own connection to the target and is forwarded
 * by two daemon threads, {@code <prefix><n>-up} (client to target) and {@code <prefix><n>-down}, where the prefix is
 * {@link #threadNamePrefix()}; the accepting thread is {@code <prefix>accept}.
 *
 * <p>The traffic mode is one of pass (the default), {@linkplain #blackhole() blackhole} and {@linkplain #refuse()
 * refuse}; setting one replaces the other. A {@linkplain #delay(Duration) delay} and {@linkplain #dropNext(int)
 * drops} apply on top of the mode; {@link #cutAll()} acts once, now. {@link #pass()} heals everything.
 *
 * <p>Thread-safe: every method may be called from any thread at any time, also while traffic flows. Every thread
 * ends when its connection ends; {@link #close()} ends them all.
 */
public final class FaultProxy implements AutoCloseable {

    /** How long opening a connection to the target may take before the client's connection is closed. */
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;

    /** How long {@link #close()} waits for the proxy's threads to end. */
    private static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);

    private static final int CHUNK_BYTES = 16 * 1024;

    private enum Mode {
        PASS,
        BLACKHOLE,
        REFUSE
    }

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket listener;
    private final String threadNamePrefix;

    /**
     * Guards changes of {@link #mode} and {@link #delayNanos}; forwarding threads held by a blackhole or a delay wait
     * on {@link #changed}, signalled by every mode change, cut and close.
     */
    private final ReentrantLock lock = new ReentrantLock();

    private final Condition changed = lock.newCondition();

    /** Written under {@link #lock}; volatile so that the accepting thread reads it without the lock. */
    private volatile Mode mode = Mode.PASS;

    /** Written under {@link #lock}. */
    private volatile long delayNanos;

    private volatile boolean closed;

    private final AtomicInteger dropsLeft = new AtomicInteger();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicLong bytesForwarded = new AtomicLong();

    /** The connections being proxied. */
    private final Set<Link> links = ConcurrentHashMap.newKeySet();

    /** Every thread started and not yet ended, so that {@link #close()} can wait for them. */
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();

    private FaultProxy(String targetHost, int targetPort, ServerSocket listener) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.listener = listener;
        this.threadNamePrefix = "ax-proxy-" + listener.getLocalPort() + "-";
    }

    /**
     * Starts a proxy in pass mode on a free port of {@code 127.0.0.1}. The target need not be up: while it is down, a
     * client's connection is accepted and then closed.
     *
     * @param targetHost where traffic goes, the only place it goes
     * @param targetPort the target's port, 1 to 65535
     * @throws IllegalArgumentException when the host is null or blank, or the port out of range
     * @throws UncheckedIOException when no port can be opened
     */
    public static FaultProxy start(String targetHost, int targetPort) {
        if (targetHost == null || targetHost.isBlank()) {
            throw new IllegalArgumentException("a target host is required, was '" + targetHost + "'");
        }
        if (targetPort < 1 || targetPort > 65_535) {
            throw new IllegalArgumentException("the target port must be between 1 and 65535, was " + targetPort);
        }
        ServerSocket listener;
        try {
            listener = new ServerSocket(0, 50, InetAddress.getByAddress(new byte[] {127, 0, 0, 1}));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a port on 127.0.0.1 for a proxy to " + targetHost, e);
        }
        FaultProxy proxy = new FaultProxy(targetHost, targetPort, listener);
        proxy.startThread("accept", proxy::acceptLoop);
        return proxy;
    }

    /** The port the proxy listens on, on {@code 127.0.0.1}: point the client here. */
    public int port() {
        return listener.getLocalPort();
    }

    /** The start of the name of every thread of this proxy, {@code ax-proxy-<port>-}. */
    public String threadNamePrefix() {
        return threadNamePrefix;
    }

    /**
     * Heals: forwards everything again, with no delay and no pending drops. Bytes (and closes) held by a blackhole
     * are delivered now, in order, as TCP delivers them when a partition ends before its timeouts.
     */
    public void pass() {
        dropsLeft.set(0);
        lock.lock();
        try {
            mode = Mode.PASS;
            delayNanos = 0;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * A network partition: nothing crosses any more, in either direction, on open connections or new ones, but no
     * connection is closed. New connections are accepted (the connect succeeds) and not forwarded, not even opened
     * to the target. Bytes sent meanwhile are held, and so is the end of a stream or a reset, until {@link #pass()}
     * or until the connection is {@linkplain #cutAll() cut}. A client sees its reads hang until its own timeout
     * (for PgJDBC, {@code socketTimeout}).
     */
    public void blackhole() {
        setMode(Mode.BLACKHOLE);
    }

    /**
     * The server is down: each new connection is accepted and closed at once with a reset, so the client sees its
     * connection reset (or closed) before any byte arrives. Open connections are not touched (see {@link #cutAll()})
     * and keep forwarding. Lasts until {@link #pass()} or {@link #blackhole()}.
     */
    public void refuse() {
        setMode(Mode.REFUSE);
    }

    /**
     * Closes every open connection now with a reset, on both sides: the client sees "connection reset", and so does
     * the target. Does not change the mode: new connections are proxied as before (or refused, or held).
     */
    public void cutAll() {
        for (Link link : links) {
            link.cut();
        }
    }

    /**
     * Holds each chunk of bytes, in either direction, for this long before forwarding it; a round trip then takes at
     * least twice the delay. Applies on top of the mode, until {@link #pass()} or {@code delay(Duration.ZERO)}.
     *
     * @throws IllegalArgumentException when the delay is null or negative
     */
    public void delay(Duration delay) {
        if (delay == null || delay.isNegative()) {
            throw new IllegalArgumentException("a delay must be zero or more, was " + delay);
        }
        lock.lock();
        try {
            delayNanos = delay.toNanos();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Closes the next {@code n} new connections right after accepting them, with a reset, as {@link #refuse()}
     * does; later ones are proxied again. Replaces an earlier count; {@code 0} cancels. Refusing connections does not
     * use up the count.
     *
     * @throws IllegalArgumentException when {@code n} is negative
     */
    public void dropNext(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("the number of connections to drop must be zero or more, was " + n);
        }
        dropsLeft.set(n);
    }

    /** How many client connections are being proxied now (held ones included; dropped and refused ones not). */
    public int connections() {
        return links.size();
    }

    /** How many bytes reached the target or the client, both directions together, since the start. */
    public long bytesForwarded() {
        return bytesForwarded.get();
    }

    /**
     * Stops listening and resets every connection, then waits up to 5 seconds for the proxy's threads to end.
     * Idempotent; after it, the port refuses connections.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true; // before the links are cut: a link registering now sees it and cuts itself
        closeQuietly(listener);
        cutAll();
        wakeAll();
        long deadline = System.nanoTime() + CLOSE_WAIT_NANOS;
        // an up thread may start its down thread meanwhile: look again until none is left
        while (!threads.isEmpty()) {
            for (Thread t : threads) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || t == Thread.currentThread()) {
                    return;
                }
                try {
                    t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    @Override
    public String toString() {
        return "FaultProxy[127.0.0.1:" + port() + " -> " + targetHost + ":" + targetPort + ", " + mode + ", "
                + links.size() + " connections" + (closed ? ", closed" : "") + "]";
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                // closed by close(), or broken: either way no more connections; the port then refuses them
                closeQuietly(listener);
                return;
            }
            int n = accepted.incrementAndGet();
            if (mode == Mode.REFUSE || dropsLeft.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
                reset(client);
                continue;
            }
            Link link = new Link(client);
            links.add(link);
            if (closed) { // close() may have cut the links before this one was added
                link.cut();
                return;
            }
            startThread(n + "-up", () -> link.open(n));
        }
    }

    private void setMode(Mode newMode) {
        lock.lock();
        try {
            mode = newMode;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Wakes held forwarding threads, so that they see a cut or the close. */
    private void wakeAll() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits while the proxy holds traffic: in a blackhole, then for the delay. Bounded by {@link #pass()}, a cut of
     * the link or {@link #close()}, all of which signal.
     *
     * @return whether to forward; false when the link was cut or the proxy closed meanwhile
     */
    private boolean awaitClearance(Link link) {
        lock.lock();
        try {
            boolean delayed = false;
            while (true) {
                if (closed || link.isCut()) {
                    return false;
                }
                if (mode == Mode.BLACKHOLE) {
                    changed.await();
                } else if (!delayed && delayNanos > 0) {
                    long left = delayNanos;
                    while (left > 0 && !closed && !link.isCut()) {
                        left = changed.awaitNanos(left);
                    }
                    delayed = true; // and look again: a blackhole may have begun during the delay
                } else {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }

    private void startThread(String suffix, Runnable body) {
        Thread thread = new Thread(
                () -> {
                    try {
                        body.run();
                    } finally {
                        threads.remove(Thread.currentThread());
                    }
                },
                threadNamePrefix + suffix);
        thread.setDaemon(true); // a test that forgets close() must not keep its JVM alive
        threads.add(thread);
        thread.start();
    }

    /** Closing with a zero linger sends a reset rather than an orderly end of stream. */
    private static void reset(Socket socket) {
        if (socket == null) {
            return;
        }
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException e) {
            // already closed: nothing to reset
        }
        closeQuietly(socket);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // closing is best effort: the peer sees the end either way
        }
    }

    /** One client connection and its connection to the target. */
    private final class Link {

        private final Socket client;

        /** Guards {@link #target} and {@link #cut}: a cut racing the target's connect must close that socket too. */
        private final Object sockets = new Object();

        private Socket target;

        private volatile boolean cut;

        /** Directions still forwarding; the last one to end closes the link. */
        private final AtomicInteger openDirections = new AtomicInteger(2);

        Link(Socket client) {
            this.client = client;
        }

        boolean isCut() {
            return cut;
        }

        /** Runs on the up thread: connects to the target, starts the down thread, then forwards client to target. */
        void open(int n) {
            if (!awaitClearance(this)) { // a blackhole holds even the connect: the target sees nothing
                cut();
                return;
            }
            Socket socket = new Socket();
            synchronized (sockets) { // registered before connecting, so that a cut also ends a slow connect
                if (cut) {
                    return;
                }
                target = socket;
            }
            try {
                socket.setTcpNoDelay(true); // forward small protocol messages as they come, as a direct link would
                client.setTcpNoDelay(true);
                socket.connect(new InetSocketAddress(targetHost, targetPort), CONNECT_TIMEOUT_MILLIS);
            } catch (IOException e) {
                cut(); // the target is down, or this link was cut: the client sees its connection end
                return;
            }
            startThread(n + "-down", () -> forward(socket, client));
            forward(client, socket);
        }

        private void forward(Socket from, Socket to) {
            byte[] chunk = new byte[CHUNK_BYTES];
            boolean orderly = false;
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                while (true) {
                    int read = in.read(chunk);
                    if (!awaitClearance(this)) {
                        return;
                    }
                    if (read < 0) {
                        to.shutdownOutput(); // pass the end of stream on; the other direction may go on
                        orderly = true;
                        return;
                    }
                    out.write(chunk, 0, read);
                    out.flush();
                    bytesForwarded.addAndGet(read);
                }
            } catch (IOException e) {
                // a peer reset, or this link was cut: hold the reset like any traffic; the cut below passes it on
                awaitClearance(this);
            } finally {
                if (!orderly) {
                    cut();
                }
                if (openDirections.decrementAndGet() == 0) {
                    end();
                }
            }
        }

        /** Both directions ended in order: close both sockets in order too. */
        private void end() {
            Socket socket;
            synchronized (sockets) {
                if (cut) {
                    return;
                }
                cut = true;
                socket = target;
            }
            links.remove(this);
            closeQuietly(client);
            closeQuietly(socket);
        }

        /** Resets both sockets, which ends both directions, and wakes them if they are held. */
        void cut() {
            Socket socket;
            synchronized (sockets) {
                if (cut) {
                    return;
                }
                cut = true;
                socket = target;
            }
            links.remove(this);
            reset(client);
            reset(socket);
            wakeAll();
        }
    }
}
