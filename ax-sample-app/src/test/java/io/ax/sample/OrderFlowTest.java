package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.ax.core.InstanceState;
import io.ax.core.engine.AxEngine;
import io.ax.sample.orders.Order;
import io.ax.sample.orders.OrderRepository;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;

/** The sample shop over HTTP: an unpaid order closes itself; a paid one does not, and its close is cancelled. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "sample.orders.payment-window=1s",
            "spring.datasource.url=jdbc:h2:mem:sample-orders;DB_CLOSE_DELAY=-1"
        })
class OrderFlowTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    @LocalServerPort
    int port;

    @Autowired
    OrderRepository orders;

    @Autowired
    AxEngine engine;

    @Autowired
    org.springframework.jdbc.core.JdbcTemplate jdbc;

    private RestClient http;

    @BeforeEach
    void client() {
        http = RestClient.create("http://localhost:" + port);
    }

    private Order open(String item) {
        return http.post()
                .uri("/orders")
                .contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("item", item))
                .retrieve()
                .body(Order.class);
    }

    @Test
    void anUnpaidOrderClosesItselfWhenItsPaymentWindowEnds() {
        Order order = open("tea");
        assertThat(order.state()).isEqualTo(Order.State.OPEN);
        assertThat(order.closeInstance()).isNotBlank();

        await().atMost(BOUND).until(() -> orders.find(order.id()).orElseThrow().state() == Order.State.CLOSED);
        await().atMost(BOUND)
                .until(() -> engine.find(order.closeInstance())
                                .orElseThrow()
                                .instance()
                                .state()
                        == InstanceState.SUCCESS);
        Map<String, Object> shown = http.get()
                .uri("/orders/{id}", order.id())
                .retrieve()
                .body(new ParameterizedTypeReference<Map<String, Object>>() {});
        assertThat(shown).containsKeys("order", "close");
        assertThat(((Map<?, ?>) shown.get("close")).get("state")).isEqualTo("SUCCESS");
        // the close wrote its attempt's fencing token with the order: the leader's epoch and attempt 1
        Long token = jdbc.queryForObject("SELECT close_token FROM sample_order WHERE id = ?", Long.class, order.id());
        assertThat(token).isEqualTo((engine.status().cluster().epoch() << 20) + 1);
    }

    @Test
    void payingFirstKeepsTheOrderAndCancelsItsClose() {
        Order order = open("coffee");

        Order paid = http.post().uri("/orders/{id}/pay", order.id()).retrieve().body(Order.class);

        assertThat(paid.state()).isEqualTo(Order.State.PAID);
        assertThat(engine.find(order.closeInstance()).orElseThrow().instance().state())
                .isEqualTo(InstanceState.CANCELLED);
        Order later = open("witness"); // due after the paid order's close time would have passed
        await().atMost(BOUND).until(() -> orders.find(later.id()).orElseThrow().state() == Order.State.CLOSED);
        assertThat(orders.find(order.id()).orElseThrow().state()).isEqualTo(Order.State.PAID);
        assertThatThrownBy(() -> http.post()
                        .uri("/orders/{id}/pay", order.id())
                        .retrieve()
                        .toBodilessEntity())
                .isInstanceOf(HttpClientErrorException.Conflict.class);
        assertThatThrownBy(() -> http.get().uri("/orders/999999").retrieve().toBodilessEntity())
                .isInstanceOf(HttpClientErrorException.NotFound.class);
    }
}
