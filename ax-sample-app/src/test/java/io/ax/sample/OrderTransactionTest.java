package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.reset;

import io.ax.core.TaskInstance;
import io.ax.core.engine.AxEngine;
import io.ax.sample.orders.Order;
import io.ax.sample.orders.OrderRepository;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.bean.override.mockito.MockitoSpyBean;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClient;

/**
 * {@code POST /orders} opens the order and schedules its close in one transaction: a failure after the close was
 * scheduled leaves neither, and the close time is the one AX scheduled.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "sample.orders.payment-window=1s",
            "spring.datasource.url=jdbc:h2:mem:sample-order-transaction;DB_CLOSE_DELAY=-1"
        })
class OrderTransactionTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    @LocalServerPort
    int port;

    @MockitoSpyBean
    OrderRepository orders;

    @Autowired
    AxEngine engine;

    @Autowired
    JdbcTemplate jdbc;

    private Order open(String item) {
        return RestClient.create("http://localhost:" + port)
                .post()
                .uri("/orders")
                .contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("item", item))
                .retrieve()
                .body(Order.class);
    }

    private int ordersOf(String item) {
        Integer n = jdbc.queryForObject("SELECT COUNT(*) FROM sample_order WHERE item = ?", Integer.class, item);
        return n == null ? 0 : n;
    }

    private List<String> closeInstances() {
        return engine.instancesOf("closeUnpaidOrder", 100).stream()
                .map(TaskInstance::id)
                .toList();
    }

    @Test
    void aFailureAfterTheCloseIsScheduledLeavesNeitherTheOrderNorItsClose() {
        List<String> before = closeInstances();
        doThrow(new IllegalStateException("injected: the order's close cannot be recorded"))
                .when(orders)
                .setClose(anyLong(), anyString(), any());

        assertThatThrownBy(() -> open("tea")).isInstanceOf(HttpServerErrorException.InternalServerError.class);

        assertThat(ordersOf("tea")).isZero();
        assertThat(closeInstances()).isEqualTo(before);

        // a later order, once the failed one's window has passed too: its close is the only one there is, or ran
        reset(orders);
        Order witness = open("coffee");
        await().atMost(BOUND)
                .until(() -> orders.find(witness.id()).orElseThrow().state() == Order.State.CLOSED);
        assertThat(ordersOf("tea")).isZero();
        assertThat(closeInstances()).containsExactlyInAnyOrderElementsOf(plus(before, witness.closeInstance()));
    }

    private static List<String> plus(List<String> ids, String id) {
        List<String> all = new ArrayList<>(ids);
        all.add(id);
        return all;
    }

    @Test
    void anOrderClosesAtTheTimeItsCloseInstanceIsScheduledFor() {
        Order order = open("book");

        TaskInstance close = engine.find(order.closeInstance()).orElseThrow().instance();
        assertThat(order.closesAt()).isEqualTo(close.scheduledTime());
    }
}
