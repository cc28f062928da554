package io.ax.test.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.ax.test.jdbc.TestDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FaultProxyTest {

    /** The bound of every wait for something that should happen. */
    private static final Duration BOUND = Duration.ofSeconds(5);

    private final List<AutoCloseable> opened = new ArrayList<>();
    private EchoServer echo;
    private FaultProxy proxy;

    @BeforeEach
    void startAnEchoServerBehindAProxy() {
        echo = EchoServer.start();
        proxy = open(FaultProxy.start("127.0.0.1", echo.port()));
    }

    @AfterEach
    void closeEverything() {
        for (int i = opened.size() - 1; i >= 0; i--) {
            try {
                opened.get(i).close();
            } catch (Exception e) {
                // the test's outcome is decided; closing is best effort
            }
        }
        echo.close();
    }

    @Test
    void passForwardsBytesBothWaysAndCountsThem() throws IOException {
        Socket client = connect(proxy);

        assertThat(roundTrip(client, "hello")).isEqualTo("hello");
        assertThat(proxy.connections()).isEqualTo(1);
        await().atMost(BOUND).until(() -> proxy.bytesForwarded() == 10); // 5 up, 5 down
    }

    @Test
    void aBlackholeHoldsTrafficWithoutClosingAnythingUntilPass() throws IOException {
        Socket client = connect(proxy);
        roundTrip(client, "hello");

        proxy.blackhole();
        send(client, "held");
        Socket latecomer = connect(proxy);

        client.setSoTimeout(300); // the one wait for nothing to happen: what a client with a read timeout sees
        assertThatThrownBy(() -> client.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
        await().atMost(BOUND).until(() -> proxy.connections() == 2);
        assertThat(echo.received()).as("bytes that reached the target").isEqualTo(5);
        assertThat(echo.accepted()).as("connections that reached the target").isEqualTo(1);

        proxy.pass();
        client.setSoTimeout((int) BOUND.toMillis());
        assertThat(receive(client, 4)).isEqualTo("held");
        assertThat(roundTrip(latecomer, "late")).isEqualTo("late");
    }

    @Test
    void cutAllResetsOpenConnectionsAndKeepsAcceptingNewOnes() throws IOException {
        Socket one = connect(proxy);
        Socket two = connect(proxy);
        roundTrip(one, "one");
        roundTrip(two, "two");

        proxy.cutAll();

        assertDisconnected(one);
        assertDisconnected(two);
        await().atMost(BOUND).until(() -> proxy.connections() == 0);
        assertThat(roundTrip(connect(proxy), "three")).isEqualTo("three");
    }

    @Test
    void refuseClosesNewConnectionsButLetsOpenOnesTalkUntilPass() throws IOException {
        Socket established = connect(proxy);
        roundTrip(established, "before");

        proxy.refuse();

        assertDisconnected(connect(proxy));
        assertThat(roundTrip(established, "during")).isEqualTo("during");
        proxy.pass();
        assertThat(roundTrip(connect(proxy), "after")).isEqualTo("after");
    }

    @Test
    void dropNextClosesExactlyTheNextConnections() throws IOException {
        proxy.dropNext(2);

        assertDisconnected(connect(proxy));
        assertDisconnected(connect(proxy));
        assertThat(roundTrip(connect(proxy), "third")).isEqualTo("third");
        assertThat(echo.accepted()).isEqualTo(1);
    }

    @Test
    void aDelayHoldsEachChunkInEachDirection() throws IOException {
        Socket client = connect(proxy);
        roundTrip(client, "warm");

        proxy.delay(Duration.ofMillis(200));
        long start = System.nanoTime();
        assertThat(roundTrip(client, "slow")).isEqualTo("slow");

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(400));
    }

    @Test
    void aClientOfADownTargetSeesItsConnectionEnd() throws IOException {
        int closedPort;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = probe.getLocalPort();
        }
        FaultProxy toNowhere = open(FaultProxy.start("127.0.0.1", closedPort));

        assertDisconnected(connect(toNowhere));
        await().atMost(BOUND).until(() -> toNowhere.connections() == 0);
    }

    @Test
    void closeEndsEveryConnectionAndLeavesNoThreadBehind() throws IOException {
        Socket talking = connect(proxy);
        roundTrip(talking, "hello");
        proxy.delay(Duration.ofSeconds(30));
        send(talking, "delayed");
        proxy.blackhole();
        Socket held = connect(proxy);
        await().atMost(BOUND).until(() -> proxy.connections() == 2);

        proxy.close();
        proxy.close();

        assertDisconnected(talking);
        assertDisconnected(held);
        await().atMost(BOUND)
                .until(() -> liveThreadsNamed(proxy.threadNamePrefix()).isEmpty());
        assertThat(proxy.connections()).isZero();
        assertThatThrownBy(() -> new Socket("127.0.0.1", proxy.port())).isInstanceOf(ConnectException.class);
    }

    @Test
    void badSettingsAreRejectedSayingWhatIsWrong() {
        assertThatThrownBy(() -> FaultProxy.start(" ", 5432)).hasMessageContaining("target host");
        assertThatThrownBy(() -> FaultProxy.start("127.0.0.1", 0)).hasMessageContaining("was 0");
        assertThatThrownBy(() -> proxy.delay(Duration.ofMillis(-1))).hasMessageContaining("PT-0.001S");
        assertThatThrownBy(() -> proxy.dropNext(-1)).hasMessageContaining("was -1");
    }

    @Test
    void aJdbcClientSeesABlackholeAsItsSocketTimeoutAndReconnectsAfterPass() throws SQLException {
        URI postgres = reachablePostgres();
        FaultProxy toPostgres = open(FaultProxy.start(postgres.getHost(), postgres.getPort()));
        String url = "jdbc:postgresql://127.0.0.1:" + toPostgres.port() + postgres.getPath();
        Properties props = new Properties();
        props.setProperty("user", TestDatabase.POSTGRESQL.user());
        props.setProperty("password", TestDatabase.POSTGRESQL.password());
        props.setProperty("connectTimeout", "5");
        // a query timeout alone does not end the wait: the cancel request it sends is held by the blackhole too
        props.setProperty("socketTimeout", "2");

        try (Connection connection = DriverManager.getConnection(url, props)) {
            assertThat(selectOne(connection)).isEqualTo(1);

            toPostgres.blackhole();

            assertTimeoutPreemptively(
                    Duration.ofSeconds(15),
                    () -> assertThatThrownBy(() -> selectOne(connection)).isInstanceOf(SQLException.class));
        }
        toPostgres.pass();
        try (Connection connection = DriverManager.getConnection(url, props)) {
            assertThat(selectOne(connection)).isEqualTo(1);
        }
    }

    private <T extends AutoCloseable> T open(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    private Socket connect(FaultProxy to) throws IOException {
        Socket socket = open(new Socket("127.0.0.1", to.port()));
        socket.setSoTimeout((int) BOUND.toMillis());
        return socket;
    }

    private static String roundTrip(Socket socket, String message) throws IOException {
        send(socket, message);
        return receive(socket, message.length());
    }

    private static void send(Socket socket, String message) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(message.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** Reads exactly {@code length} bytes, each read bounded by the socket's timeout. */
    private static String receive(Socket socket, int length) throws IOException {
        byte[] bytes = socket.getInputStream().readNBytes(length);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    /** The peer ended the connection: a read sees the end of stream or a reset, within the socket's timeout. */
    private static void assertDisconnected(Socket socket) throws IOException {
        socket.setSoTimeout((int) BOUND.toMillis());
        try {
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
        } catch (SocketTimeoutException e) {
            fail("the connection is still open after " + BOUND);
        } catch (SocketException e) {
            // a reset: disconnected too
        }
    }

    private static List<Thread> liveThreadsNamed(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(prefix))
                .toList();
    }

    private static int selectOne(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT 1")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** PostgreSQL's address, or the test is skipped (failed with {@code AX_TEST_SERVICES=required}), as the suites do. */
    private static URI reachablePostgres() {
        TestDatabase db = TestDatabase.POSTGRESQL;
        if (!db.isReachable()) {
            String message = db + " at " + db.url() + " is not reachable";
            if (TestDatabase.servicesRequired()) {
                throw new IllegalStateException(message + " and AX_TEST_SERVICES=required");
            }
            Assumptions.abort(message + "; set AX_TEST_SERVICES=required to make this a failure");
        }
        URI uri = URI.create(db.url().substring("jdbc:".length()));
        return uri.getPort() == -1 ? URI.create("postgresql://" + uri.getHost() + ":5432" + uri.getPath()) : uri;
    }

    /** The target: echoes every byte back, on 127.0.0.1, one named thread per connection. */
    private static final class EchoServer implements AutoCloseable {

        private final ServerSocket server;
        private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
        private final List<Thread> threads = new ArrayList<>();
        private final AtomicInteger accepted = new AtomicInteger();
        private final AtomicLong received = new AtomicLong();

        private EchoServer(ServerSocket server) {
            this.server = server;
        }

        static EchoServer start() {
            try {
                EchoServer echo = new EchoServer(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
                echo.startThread("accept", echo::acceptLoop);
                return echo;
            } catch (IOException e) {
                throw new IllegalStateException("cannot start an echo server", e);
            }
        }

        int port() {
            return server.getLocalPort();
        }

        int accepted() {
            return accepted.get();
        }

        long received() {
            return received.get();
        }

        private void acceptLoop() {
            try {
                while (true) {
                    Socket socket = server.accept();
                    sockets.add(socket);
                    startThread(String.valueOf(accepted.incrementAndGet()), () -> echo(socket));
                }
            } catch (IOException e) {
                // closed
            }
        }

        private void echo(Socket socket) {
            byte[] buffer = new byte[4096];
            try (InputStream in = socket.getInputStream();
                    OutputStream out = socket.getOutputStream()) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    received.addAndGet(n);
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // the proxy reset the connection: that is what several tests do
            } finally {
                sockets.remove(socket);
            }
        }

        private synchronized void startThread(String suffix, Runnable body) {
            Thread thread = new Thread(body, "echo-" + port() + "-" + suffix);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }

        @Override
        public void close() {
            try {
                server.close();
                for (Socket socket : sockets) {
                    socket.close();
                }
                List<Thread> all;
                synchronized (this) {
                    all = List.copyOf(threads);
                }
                for (Thread thread : all) {
                    thread.join(BOUND.toMillis());
                }
            } catch (IOException e) {
                throw new IllegalStateException("cannot close the echo server", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
