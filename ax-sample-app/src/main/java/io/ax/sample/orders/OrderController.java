package io.ax.sample.orders;

import io.ax.core.AxScheduler;
import io.ax.core.InstanceDetails;
import io.ax.core.ScheduleRequest;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A small shop: {@code POST /orders} opens an order that closes itself when its payment window ends, unless
 * {@code POST /orders/{id}/pay} comes first; {@code GET /orders/{id}} shows the order and its close instance.
 */
@RestController
@RequestMapping("/orders")
public class OrderController {

    /** The body of {@code POST /orders}. */
    public record NewOrder(String item) {}

    private final OrderRepository orders;
    private final AxScheduler scheduler;
    private final Duration paymentWindow;
    private final TransactionTemplate transaction;

    public OrderController(
            OrderRepository orders,
            AxScheduler scheduler,
            PlatformTransactionManager transactions,
            @Value("${sample.orders.payment-window:30m}") Duration paymentWindow) {
        this.orders = orders;
        this.scheduler = scheduler;
        this.paymentWindow = paymentWindow;
        this.transaction = new TransactionTemplate(transactions);
    }

    /**
     * Opens an order and schedules its close in one transaction on the application's DataSource, the one AX keeps
     * its instances in: both are there or neither, whatever fails on the way, and AX runs the close only once the
     * order is committed.
     */
    @PostMapping
    public ResponseEntity<Order> open(@RequestBody NewOrder request) {
        if (request == null || request.item() == null || request.item().isBlank()) {
            return ResponseEntity.badRequest().build();
        }
        Order order = transaction.execute(status -> {
            long id = orders.create(request.item());
            // after the window on the cluster's clock, as AX decides it: this node's own clock may be off. The key
            // makes a retried request harmless: the same order never gets a second close instance
            String closeInstance = scheduler.schedule(ScheduleRequest.of("closeUnpaidOrder")
                    .after(paymentWindow)
                    .payload(new OrderJobs.CloseOrder(id))
                    .key("order-" + id + ":close"));
            Instant closesAt =
                    scheduler.find(closeInstance).orElseThrow().instance().scheduledTime();
            orders.setClose(id, closeInstance, closesAt);
            return orders.find(id).orElseThrow();
        });
        return ResponseEntity.created(URI.create("/orders/" + order.id())).body(order);
    }

    @PostMapping("/{id}/pay")
    public ResponseEntity<Order> pay(@PathVariable long id) {
        Order order = orders.find(id).orElse(null);
        if (order == null) {
            return ResponseEntity.notFound().build();
        }
        if (!orders.moveFromOpen(id, Order.State.PAID)) {
            return ResponseEntity.status(HttpStatus.CONFLICT).body(order);
        }
        // paid: the close is no longer needed; if it already started, it finds the order PAID and leaves it
        scheduler.cancel(order.closeInstance());
        return ResponseEntity.ok(orders.find(id).orElseThrow());
    }

    @GetMapping("/{id}")
    public ResponseEntity<Map<String, Object>> show(@PathVariable long id) {
        Order order = orders.find(id).orElse(null);
        if (order == null) {
            return ResponseEntity.notFound().build();
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("order", order);
        scheduler.find(order.closeInstance()).map(OrderController::describe).ifPresent(c -> body.put("close", c));
        return ResponseEntity.ok(body);
    }

    private static Map<String, Object> describe(InstanceDetails details) {
        Map<String, Object> close = new LinkedHashMap<>();
        close.put("instance", details.instance().id());
        close.put("state", details.instance().state());
        close.put("scheduledTime", details.instance().scheduledTime());
        close.put(
                "auditTrail",
                details.auditTrail().stream()
                        .map(e -> e.to() + " at " + e.at() + (e.reason().isEmpty() ? "" : ": " + e.reason()))
                        .toList());
        return close;
    }
}
